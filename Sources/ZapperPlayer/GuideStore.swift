import Foundation
import ZapperCore

/// The programme guide for the card and the banner: read in the background
/// from the lineup's `url-tvg` (or `--guide`) by the guide loader, and
/// refreshed every hour. A refresh that fails keeps the guide we have.
final class GuideStore: @unchecked Sendable {
    private let lock = NSLock()
    private var guide: Guide?
    private let loader: any GuideLoader
    private let wanted: GuideWanted
    /// The largest guide shift of a channel, hours: the window read reaches that much further.
    private let widestShift: Double
    private let refreshSeconds: Double
    private let clock: any PlayerClock
    /// When a load last succeeded.
    private var loaded: Date?

    init(loader: any GuideLoader, lineup: [LineupChannel], refreshSeconds: Double = 3600, clock: any PlayerClock = SystemClock()) {
        self.loader = loader
        self.refreshSeconds = refreshSeconds
        self.clock = clock
        wanted = GuideWanted(lineup: lineup)
        widestShift = lineup.map { abs($0.guideShift ?? 0) }.max() ?? 0
    }

    func start() {
        let pause = refreshSeconds
        Task.detached { [weak self] in
            while let self {
                await self.refresh()
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }

    /// Loads the guide once more, merged into what we had.
    func refresh() async {
        do {
            let window = self.window
            let loaded = try await loader.load(window: window, wanted: wanted)
            for problem in loaded.problems.prefix(5) { Player.say("guide: \(problem)") }
            let count = loaded.guide.programmeCount
            let now = clock.date
            lock.withLock {
                guide = guide.map { $0.merging(loaded.guide, window: window) } ?? loaded.guide
                self.loaded = now
            }
            Player.say("guide: \(count) programmes from \(loader.source)")
        } catch {
            Player.say("guide: \(error) (keeping what we had)")
        }
    }

    /// The programmes kept: the last hour and the next day, each widened by the widest shift.
    private var window: GuideWindow {
        let shift = widestShift * 3600
        return GuideWindow(now: clock.date, past: 3600 + shift, ahead: 86_400 + shift)
    }

    /// When the guide was last loaded (nil: never yet).
    var loadedAt: Date? { lock.withLock { loaded } }

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

    /// "20:00 – 21:30"
    static func timeRange(_ programme: Programme) -> String { line(programme).timeRange }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter
    }()

    private static func line(_ programme: Programme) -> ProgrammeLine {
        ProgrammeLine(title: programme.title, start: clock.string(from: programme.start), end: clock.string(from: programme.stop))
    }
}
