import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// What a session fetches at most: never pictures this box decodes too slowly (stepping below
/// that size at the next segment), nor pictures larger than what fills the screen, whatever
/// the line could carry.
@Suite(.timeLimit(.minutes(5)))
struct PictureCeilingTests {
    /// Channel 1's master (240p, 720p, 1080p: variants 0, 1, 2) with BANDWIDTHs of 100, 120 and 140 kbit/s:
    /// any rate measured on loopback, however busy the machine, lets the session step up to 1080p
    /// (at the real 5.6 Mbit/s a loaded run did not); and the session's choices as it tells them.
    final class Ladder: Sendable {
        let url: URL
        let text: String
        let choices = Mutex<[(index: Int, reason: String)]>([])

        init() async throws {
            let origin = try OriginProcess.shared.get()
            url = URL(string: "http://127.0.0.1:\(origin.port)/ch/1/master.m3u8")!
            let master = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/1/master.m3u8")
            var rung = 0
            text = master.text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                guard line.hasPrefix("#EXT-X-STREAM-INF:"), let resolution = line.range(of: "RESOLUTION=") else { return String(line) }
                rung += 1
                return "#EXT-X-STREAM-INF:BANDWIDTH=\(80_000 + 20_000 * rung)," + line[resolution.lowerBound...]
            }.joined(separator: "\n")
            try #require(rung == 3, "\(master.text)")
        }

        func session(pictureCeiling: @escaping @Sendable () -> Int? = { nil },
                     screen: @escaping @Sendable () -> HLSResolution? = { nil }) -> HLSLiveSession {
            HLSLiveSession(url: url, fetcher: .shared, bufferedSeconds: { 10 }, pictureCeiling: pictureCeiling, screen: screen,
                           firstAnswer: (text, url)) { event in
                if case .variantChosen(let index, _, let reason) = event { self.choices.withLock { $0.append((index, reason)) } }
            }
        }

        var told: Int { choices.withLock { $0.count } }

        func chosen(since mark: Int) -> [Int] { choices.withLock { $0[mark...].map(\.index) } }

        func waitFor(_ what: String, _ condition: ([(index: Int, reason: String)]) -> Bool) async throws {
            let deadline = Date().addingTimeInterval(30)
            while !choices.withLock({ condition($0) }) {
                guard Date() < deadline else {
                    throw RawHTTPConnection.Failure(description: "timed out waiting for \(what): \(choices.withLock { $0 })")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test func variantsAsLargeAsTheCeilingAreLeftOut() async throws {
        let ladder = try await Ladder()
        let ceiling = Mutex<Int?>(nil)
        let session = ladder.session(pictureCeiling: { ceiling.withLock { $0 } })
        session.start()
        let consumer = Task { for await _ in session.segments {} }
        defer { session.cancel(); consumer.cancel() }
        try await ladder.waitFor("1080p") { $0.last?.index == 2 }
        var told = ladder.told
        ceiling.withLock { $0 = 1920 * 1080 }
        try await ladder.waitFor("a step down to 720p") { $0.count > told }
        #expect(ladder.chosen(since: told) == [1])
        #expect(ladder.choices.withLock { $0[told].reason } == "this box decodes the pictures above too slowly")
        told = ladder.told
        ceiling.withLock { $0 = 1280 * 720 }
        try await ladder.waitFor("a step down to 240p") { $0.count > told }
        // Three segments more: none of them above 240p.
        try await Task.sleep(for: .seconds(6))
        #expect(ladder.chosen(since: told) == [0])
    }

    /// On a 640x360 screen the session stops at 720p (240p would be enlarged), however fast the
    /// line; the screen modeset to 1920x1080, it goes on to 1080p, and back at 640x360, down again.
    @Test func noVariantLargerThanWhatFillsTheScreenIsFetched() async throws {
        let ladder = try await Ladder()
        let screen = Mutex<HLSResolution?>(HLSResolution(width: 640, height: 360))
        let session = ladder.session(screen: { screen.withLock { $0 } })
        session.start()
        let consumer = Task { for await _ in session.segments {} }
        defer { session.cancel(); consumer.cancel() }
        try await ladder.waitFor("720p") { $0.last?.index == 1 }
        // Three segments more (each 2 s), at a line that would carry 1080p: still 720p.
        try await Task.sleep(for: .seconds(6))
        #expect(!ladder.chosen(since: 0).contains(2), "\(ladder.choices.withLock { $0 })")
        var told = ladder.told
        screen.withLock { $0 = HLSResolution(width: 1920, height: 1080) }
        try await ladder.waitFor("1080p on the larger screen") { $0.count > told }
        #expect(ladder.chosen(since: told) == [2])
        told = ladder.told
        screen.withLock { $0 = HLSResolution(width: 640, height: 360) }
        try await ladder.waitFor("720p again") { $0.count > told }
        #expect(ladder.chosen(since: told) == [1])
        #expect(ladder.choices.withLock { $0[told].reason } == "the screen is smaller than the pictures above")
    }
}
