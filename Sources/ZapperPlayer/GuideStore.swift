import Foundation
import ZapperCore
import ZapperGuide
import ZapperHLS

/// The programme guide for the card and the banner: read in the background
/// from the lineup's `url-tvg` (or `--guide`), a file or http(s), streaming,
/// and refreshed every hour. A refresh that fails keeps the guide we have.
final class GuideStore: @unchecked Sendable {
    private let lock = NSLock()
    private var guide: Guide?
    private let source: String
    private let channelIDs: Set<String>
    private let refreshSeconds: Double
    /// A guide download must be whole within this long (a server that trickles would
    /// otherwise hold the refresh for good).
    static let downloadSeconds = 300.0

    init(source: String, lineup: [LineupChannel], refreshSeconds: Double = 3600) {
        self.source = source
        self.refreshSeconds = refreshSeconds
        channelIDs = Set(lineup.compactMap(\.guideID))
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

    private func refresh() async {
        let options = GuideReader.Options(window: GuideWindow(now: Date()), channelIDs: channelIDs)
        do {
            let document: GuideDocument
            if let url = URL(string: source), url.scheme == "http" || url.scheme == "https" {
                let reader = GuideReader(source: source, options: options)
                do {
                    let deadline = HTTPFetcher.now() + Self.downloadSeconds
                    let response = try await HTTPFetcher.shared.start(url)
                    var bytes = 0
                    for try await chunk in response.body {
                        bytes += chunk.readableBytes
                        try HTTPFetcher.check(deadline: deadline, url: url, bytes: bytes)
                        try await reader.feed(Array(chunk.readableBytesView))
                    }
                } catch {
                    reader.cancel()
                    throw error
                }
                document = try await reader.finish()
            } else {
                let path = source.hasPrefix("file://") ? String(source.dropFirst(7)) : source
                document = try await Task.detached { try GuideReader.read(path: path, options: options) }.value
            }
            for problem in document.problems.prefix(5) { Player.say("guide: \(problem)") }
            let count = document.guide.programmeCount
            lock.withLock { guide = guide.map { $0.merging(document.guide, window: GuideWindow(now: Date())) } ?? document.guide }
            Player.say("guide: \(count) programmes from \(source)")
        } catch {
            Player.say("guide: \(error) (keeping what we had)")
        }
    }

    /// Now and next on a channel, as the card and the banner show them.
    func lines(for channel: LineupChannel?, at date: Date = Date()) -> (now: ProgrammeLine?, next: ProgrammeLine?, progress: Double?) {
        guard let channel, let guide = lock.withLock({ guide }) else { return (nil, nil, nil) }
        let now = guide.now(for: channel, at: date)
        let next = guide.next(for: channel, after: now?.start ?? date)
        return (now.map(Self.line), next.map(Self.line), now?.progress(at: date))
    }

    /// The programme on now, whole (the panel's info page, the parental lock).
    func programme(for channel: LineupChannel?, at date: Date = Date()) -> Programme? {
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
