import CoreMetrics
import Foundation
import Prometheus
import Synchronization
import ZapperCore

/// The player's events and counts turned into metrics (`MetricCatalogue`): the event log's
/// watcher (`record`), the frame loop's and audio thread's meter (`PlaybackMeter`), and the
/// values read at each scrape (`refresh`). Every call only takes note and returns.
public final class PlayerMetrics: PlaybackMeter, Sendable {
    public let factory: CataloguedMetricsFactory
    private let firstFrames: CoreMetrics.Counter
    private let stalls: CoreMetrics.Counter
    private let late: CoreMetrics.Counter
    private let dropped: CoreMetrics.Counter
    private let underruns: CoreMetrics.Counter
    private let avOffset: CoreMetrics.Gauge
    private let offline: CoreMetrics.Gauge
    private let uptime: CoreMetrics.Gauge
    private let resident: CoreMetrics.Gauge
    private let cpu: CoreMetrics.FloatingPointCounter
    private let state = Mutex(State())

    /// A picture shown later than this after its time on the audio clock is late.
    public static let lateAfterSeconds = 0.1
    /// At most this many failure reasons get a series of their own; more are counted as `other`
    /// (a reason carries an HTTP status from outside).
    public static let maxFailureReasons = 32

    private struct State {
        /// The tune whose first picture is awaited: its channel, name and kind.
        var pending: (channel: Int, name: String, kind: ZapKind)?
        var channelInfo: (number: Int, name: String, gauge: CoreMetrics.Gauge)?
        var failureReasons: Set<String> = []
        var guideAge: CoreMetrics.Gauge?
        var cpuSeconds = 0.0
    }

    public init(factory: CataloguedMetricsFactory = CataloguedMetricsFactory()) {
        self.factory = factory
        firstFrames = CoreMetrics.Counter(label: MetricCatalogue.firstFrames.name, factory: factory)
        stalls = CoreMetrics.Counter(label: MetricCatalogue.stalls.name, factory: factory)
        late = CoreMetrics.Counter(label: MetricCatalogue.latePictures.name, factory: factory)
        dropped = CoreMetrics.Counter(label: MetricCatalogue.droppedPictures.name, factory: factory)
        underruns = CoreMetrics.Counter(label: MetricCatalogue.audioUnderruns.name, factory: factory)
        avOffset = CoreMetrics.Gauge(label: MetricCatalogue.avOffset.name, factory: factory)
        offline = CoreMetrics.Gauge(label: MetricCatalogue.offline.name, factory: factory)
        offline.record(0)
        uptime = CoreMetrics.Gauge(label: MetricCatalogue.uptime.name, factory: factory)
        resident = CoreMetrics.Gauge(label: MetricCatalogue.residentMemory.name, factory: factory)
        cpu = CoreMetrics.FloatingPointCounter(label: MetricCatalogue.cpuSeconds.name, factory: factory)
    }

    /// The metrics in Prometheus's text exposition format.
    public func exposition() -> String { factory.registry.emitToString() }

    /// An event of the player's log (`EventLog.observe`).
    public func record(_ event: PlayerEvent) {
        switch event {
        case let .tune(channel, name, reason, warm):
            CoreMetrics.Counter(label: MetricCatalogue.tunes.name, dimensions: [("reason", reason.rawValue)], factory: factory).increment()
            state.withLock { $0.pending = (channel, name, ZapKind(reason: reason, warm: warm)) }
        case let .firstFrame(channel, zapMilliseconds, _, _, _):
            firstFrames.increment()
            guard let pending = state.withLock({ $0.pending }), pending.channel == channel else { return }
            CoreMetrics.Timer(label: MetricCatalogue.zapSeconds.name, dimensions: [("kind", pending.kind.rawValue)], factory: factory)
                .recordMilliseconds(max(0, zapMilliseconds))
            showing(channel, pending.name)
        case let .loadFailed(_, failure):
            let reason = state.withLock { state in
                if state.failureReasons.contains(failure.name) { return failure.name }
                guard state.failureReasons.count < Self.maxFailureReasons else { return "other" }
                state.failureReasons.insert(failure.name)
                return failure.name
            }
            CoreMetrics.Counter(label: MetricCatalogue.failures.name, dimensions: [("reason", reason)], factory: factory).increment()
        case .stalled:
            stalls.increment()
        case let .offline(on, _):
            offline.record(on ? 1 : 0)
        case .frozen, .black:
            let kind = event.name == .frozen ? "frozen" : "black"
            CoreMetrics.Counter(label: MetricCatalogue.pictureFaults.name, dimensions: [("kind", kind)], factory: factory).increment()
        default:
            break
        }
    }

    /// `zapper_channel_info` names the channel now on screen: the old series goes.
    private func showing(_ number: Int, _ name: String) {
        state.withLock { state in
            if let info = state.channelInfo, info.number == number, info.name == name { return }
            state.channelInfo?.gauge.destroy()
            let gauge = CoreMetrics.Gauge(label: MetricCatalogue.channelInfo.name, dimensions: [("number", "\(number)"), ("name", name)], factory: factory)
            gauge.record(1)
            state.channelInfo = (number, name, gauge)
        }
    }

    public func presented(pictureTime: Double, clock: Double, dropped count: Int) {
        if count > 0 { dropped.increment(by: count) }
        let offset = clock - pictureTime
        guard offset.isFinite else { return }
        avOffset.record(offset)
        if offset > Self.lateAfterSeconds { late.increment() }
    }

    public func audioUnderrun() { underruns.increment() }

    /// Values read when scraped: seconds since start, the process's memory and CPU (nil: unreadable),
    /// what the allocator holds (nil: not jemalloc), the guide's age (nil: not loaded yet).
    public func refresh(uptimeSeconds: Double, process: ProcessSample?, allocator: AllocatorSample? = nil, guideAgeSeconds: Double?) {
        if uptimeSeconds.isFinite { uptime.record(max(0, uptimeSeconds)) }
        for (name, bytes) in allocator?.byState ?? [] where bytes.isFinite {
            CoreMetrics.Gauge(label: MetricCatalogue.allocatorMemory.name, dimensions: [("state", name)], factory: factory).record(max(0, bytes))
        }
        if let process {
            resident.record(process.residentBytes)
            let added = state.withLock { state in
                defer { state.cpuSeconds = max(state.cpuSeconds, process.cpuSeconds) }
                return process.cpuSeconds - state.cpuSeconds
            }
            if added > 0, added.isFinite { cpu.increment(by: added) }
        }
        if let guideAgeSeconds, guideAgeSeconds.isFinite {
            let gauge = state.withLock { state in
                if let gauge = state.guideAge { return gauge }
                let gauge = CoreMetrics.Gauge(label: MetricCatalogue.guideAge.name, factory: factory)
                state.guideAge = gauge
                return gauge
            }
            gauge.record(max(0, guideAgeSeconds))
        }
    }
}

/// What kind of zap a tune is, for `zapper_zap_seconds`'s `kind` label:
/// - `adjacent`: CH+/CH− (reason next or previous) to a neighbour that was kept warm;
/// - `number`: a channel typed by number, chosen from the list, or the last channel (number, list,
///   last), warm or not;
/// - `cold`: the start, a retry, a failover to the next source, back to live, and CH± to a neighbour that was
///   not warm (it had to be loaded from nothing).
public enum ZapKind: String, Sendable, Equatable {
    case adjacent, number, cold

    public init(reason: TuneReason, warm: Bool) {
        switch reason {
        case .next, .previous: self = warm ? .adjacent : .cold
        case .number, .list, .last: self = .number
        case .start, .retry, .failover, .live: self = .cold
        }
    }
}
