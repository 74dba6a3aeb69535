import Foundation
import Synchronization
import ZapperCore

/// Where a pipeline's segments come from: a live session of some kind.
public protocol SegmentSource: AnyObject, Sendable {
    /// The deliveries, in order; finishes when the session ends.
    var segments: AsyncStream<HLSSegmentDelivery> { get }
    func start()
}

extension HLSLiveSession: SegmentSource {}

/// A channel's stream, whatever its URL answers: the first answer's bytes and type
/// (`FirstAnswer`) decide between an HLS session, handed the playlist already read,
/// and a raw MPEG-TS session (`RawTSSession`); an answer that is neither fails at
/// once with the reason (`notAStream`), never retried here. A URL that does not
/// answer is tried again with backoff, as a master playlist is.
public final class ChannelSession: SegmentSource {
    public let url: URL
    private let fetcher: HTTPFetcher
    private let bufferedSeconds: @Sendable () -> Double
    private let variantCap: @Sendable () -> Int?
    private let pictureCeiling: @Sendable () -> Int?
    private let screen: @Sendable () -> HLSResolution?
    private let isWarm: @Sendable () -> Bool
    private let report: @Sendable (HLSEvent) -> Void
    private let masters: KnownMasters?
    private let warmMemory: WarmMemory
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let promotion = PromotionSignal()
    private let hls = Mutex<HLSLiveSession?>(nil)
    private let room = Mutex<(@Sendable () -> Bool)?>(nil)
    /// A raw MPEG-TS stream's bytes that may wait for the decoder (nil: `RawTSSession.liveWaitingBytes`).
    private let rawWaiting = Mutex<Int?>(nil)
    private let continuation: AsyncStream<HLSSegmentDelivery>.Continuation
    public let segments: AsyncStream<HLSSegmentDelivery>

    /// `variantCap`, `pictureCeiling`, `screen` and `bufferedSeconds` steer an HLS stream (`HLSLiveSession`); `isWarm`
    /// tells a raw MPEG-TS stream to keep only its latest key frame on. With `masters`, a master
    /// playlist fetched lately for this URL and these headers is used without fetching it again.
    public init(url: URL, fetcher: HTTPFetcher, bufferedSeconds: @escaping @Sendable () -> Double,
                variantCap: @escaping @Sendable () -> Int? = { nil }, pictureCeiling: @escaping @Sendable () -> Int? = { nil },
                screen: @escaping @Sendable () -> HLSResolution? = { nil },
                isWarm: @escaping @Sendable () -> Bool = { false },
                masters: KnownMasters? = nil, warmMemory: WarmMemory = .shared, events: @escaping @Sendable (HLSEvent) -> Void) {
        self.url = url
        self.warmMemory = warmMemory
        self.masters = masters
        self.fetcher = fetcher
        self.bufferedSeconds = bufferedSeconds
        self.variantCap = variantCap
        self.pictureCeiling = pictureCeiling
        self.screen = screen
        self.isWarm = isWarm
        report = events
        (segments, continuation) = AsyncStream.makeStream(of: HLSSegmentDelivery.self)
    }

    public func start() {
        let started = Task { await self.run() }
        task.withLock { $0 = started }
    }

    /// For an HLS stream: fetch a segment only when `hasRoom` says so (`HLSLiveSession.waitsForRoom`).
    public func waitsForRoom(_ hasRoom: @escaping @Sendable () -> Bool) {
        room.withLock { $0 = hasRoom }
    }

    /// For a raw MPEG-TS stream: how many bytes may wait for the decoder from now on (paused or behind live).
    public func holdsRawBytes(_ bytes: Int) {
        rawWaiting.withLock { $0 = bytes }
    }

    /// The warm neighbour was promoted: a segment head it kept is fetched on at once.
    public func promoted() { promotion.signal() }

    /// Stops fetching; the segment stream finishes.
    public func cancel() {
        task.withLock { $0?.cancel() }
        hls.withLock { $0?.cancel() }
        continuation.finish()
    }

    private func run() async {
        defer { continuation.finish() }
        let key = KnownMasters.key(url, fetcher.headers)
        if let masters, let remembered = masters.recall(key) {
            report(.masterRemembered(url: url.absoluteString, age: remembered.age, stale: false))
            guard await !followHLS(first: (remembered.text, remembered.url), remembered: true) else { return }
            masters.forget(key)
            if Task.isCancelled { return }
            report(.masterRemembered(url: url.absoluteString, age: remembered.age, stale: true))
        }
        var attempt = 0
        while !Task.isCancelled {
            let answer: FirstAnswer
            do {
                answer = try await fetcher.firstAnswer(url)
            } catch {
                if Task.isCancelled { return }
                let failure = HTTPFailureKind.failure(error, url: url.absoluteString)
                if case .unsupported = failure.kind {
                    report(.notAStream(failure))
                    return
                }
                attempt += 1
                report(.playlistFailed(url: url.absoluteString, failure: failure, attempt: attempt))
                guard await HLSLiveSession.pause(HLSLiveSession.backoff(attempt)) else { return }
                continue
            }
            if attempt > 0 { report(.playlistRecovered(url: url.absoluteString)) }
            switch answer {
            case .playlist(let text, let answered):
                if let masters, case .master? = try? HLSParser.parse(text, url: answered) {
                    masters.remember(text, answered: answered, for: key)
                }
                await followHLS(first: (text, answered))
            case .mpegTS(let body):
                report(.rawStream(url: body.url.absoluteString))
                let continuation = self.continuation
                var raw = RawTSSession(url: url, fetcher: fetcher, isWarm: isWarm, report: report) { continuation.yield($0) }
                raw.waitingBytes = { [weak self] in self?.rawWaiting.withLock { $0 } ?? RawTSSession.liveWaitingBytes }
                await raw.run(body)
            }
            return
        }
    }

    /// Follows the HLS stream from its first playlist; true when the session ended for good,
    /// false when the remembered master it started from led nowhere (`HLSLiveSession.endedOnStaleMaster`).
    @discardableResult
    private func followHLS(first: (text: String, url: URL), remembered: Bool = false) async -> Bool {
        let session = HLSLiveSession(url: url, fetcher: fetcher, bufferedSeconds: bufferedSeconds, variantCap: variantCap,
                                     pictureCeiling: pictureCeiling, screen: screen,
                                     firstAnswer: first, firstAnswerRemembered: remembered, isWarm: isWarm,
                                     promotion: promotion, warmMemory: warmMemory, events: report)
        if let hasRoom = room.withLock({ $0 }) { session.waitsForRoom(hasRoom) }
        hls.withLock { $0 = session }
        guard !Task.isCancelled else {
            session.cancel()
            return true
        }
        session.start()
        for await delivery in session.segments { continuation.yield(delivery) }
        return !session.endedOnStaleMaster
    }
}
