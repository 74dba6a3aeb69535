import Foundation
import ZapperCore

/// The programme guide for the card and the banner: read in the background
/// from the lineup's `url-tvg` (or `--guide`) by the guide loader, and
/// refreshed every hour. A refresh that fails keeps the guide we have (or, at start, takes the
/// copy of the last good read the loader keeps) and is tried again in two minutes.
final class GuideStore: @unchecked Sendable {
    private let lock = NSLock()
    private var guide: Guide?
    private let loader: any GuideLoader
    private let wanted: GuideWanted
    /// The largest guide shift of a channel, hours: the window read reaches that much further.
    private let widestShift: Double
    private let refreshSeconds: Double
    private let clock: any PlayerClock
    /// Told the programmes kept after each read, and whether they are a stale copy (the event log's `guide-loaded`).
    private let loaded: @Sendable (Int, Bool) -> Void
    /// After a read that failed (or gave only the stale copy), the next comes this much sooner.
    static let retrySeconds = 120.0
    /// When the guide kept was read (a stale copy: when its read was).
    private var readAt: Date?
    private var fromCopy = false

    init(loader: any GuideLoader, lineup: [LineupChannel], refreshSeconds: Double = 3600, clock: any PlayerClock = SystemClock(),
         loaded: @escaping @Sendable (Int, Bool) -> Void = { _, _ in }) {
        self.loader = loader
        self.loaded = loaded
        self.refreshSeconds = refreshSeconds
        self.clock = clock
        wanted = GuideWanted(lineup: lineup)
        widestShift = lineup.map { abs($0.guideShift ?? 0) }.max() ?? 0
    }

    func start() {
        let (fresh, stale) = (refreshSeconds, Self.retrySeconds)
        Task.detached { [weak self] in
            while let self {
                let read = await self.refresh()
                try? await Task.sleep(for: .seconds(read ? fresh : stale))
            }
        }
    }

    /// Loads the guide once more, merged into what we had; true when it was read now (not a stale copy, no failure).
    @discardableResult
    func refresh() async -> Bool {
        do {
            let window = self.window
            let read = try await loader.load(window: window, wanted: wanted)
            for problem in read.problems.prefix(5) { Player.say("guide: \(problem)") }
            let count = read.guide.programmeCount
            let stale = read.staleSince != nil
            let now = clock.date
            let kept = lock.withLock {
                // A stale copy only stands in for nothing: what this run read is newer.
                if stale {
                    if guide == nil { (guide, readAt, fromCopy) = (read.guide, read.staleSince, true) }
                } else {
                    guide = guide.map { $0.merging(read.guide, window: window) } ?? read.guide
                    readAt = now
                    fromCopy = false
                }
                return guide?.programmeCount ?? 0
            }
            Player.say("guide: \(count) programmes from \(stale ? "the copy of the last good read" : loader.source)")
            loaded(kept, stale)
            return !stale
        } catch {
            Player.say("guide: \(error) (keeping what we had)")
            return false
        }
    }

    /// The programmes kept: the last hour and the next day, each widened by the widest shift.
    private var window: GuideWindow {
        let shift = widestShift * 3600
        return GuideWindow(now: clock.date, past: 3600 + shift, ahead: 86_400 + shift)
    }

    /// Whether the guide shown is the copy of an earlier run's read (none could be read since).
    var showsCopy: Bool { lock.withLock { fromCopy } }

    /// When the guide was last loaded (nil: never yet).
    var loadedAt: Date? { lock.withLock { readAt } }

    /// Now and next on a channel, as the card and the banner show them.
    func lines(for channel: LineupChannel?, at date: Date) -> (now: ProgrammeLine?, next: ProgrammeLine?, progress: Double?) {
        guard let channel, let guide = lock.withLock({ guide }) else { return (nil, nil, nil) }
        let now = guide.now(for: channel, at: date)
        let next = guide.next(for: channel, after: now?.start ?? date)
        return (now.map(Self.line), next.map(Self.line), now?.progress(at: date))
    }

    /// The programme on now, whole (the panel's info page, the parental lock).
    func programme(for channel: LineupChannel?, at date: Date) -> Programme? {
        guard let channel, let guide = lock.withLock({ guide }) else { return nil }
        return guide.now(for: channel, at: date)
    }

    /// The programmes on a channel overlapping `from ..< to` (the full-screen guide's rows).
    func programmes(for channel: LineupChannel?, from: Date, to: Date) -> [Programme] {
        guard let channel, let guide = lock.withLock({ guide }) else { return [] }
        return guide.programmes(for: channel, from: from, to: to)
    }

    /// From the earliest programme kept to the latest one's end.
    var timeSpan: Range<Date>? { lock.withLock { guide }?.timeSpan }

    /// "20:00 – 21:30"
    static func timeRange(_ programme: Programme) -> String { line(programme).timeRange }

    /// "20:00", on the box's wall clock.
    static func time(_ date: Date) -> String { LocalTime.clock(date) }

    private static func line(_ programme: Programme) -> ProgrammeLine {
        ProgrammeLine(title: programme.title, start: time(programme.start), end: time(programme.stop))
    }
}
