import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// A box that decodes pictures of some size too slowly: the session steps below that size at
/// the next segment and never fetches it again, whatever the line could carry.
@Suite(.timeLimit(.minutes(5)))
struct PictureCeilingTests {
    @Test func variantsAsLargeAsTheCeilingAreLeftOut() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/1/master.m3u8")!  // 240p, 720p, 1080p: variants 0, 1, 2
        // Its master with BANDWIDTHs of 100, 120 and 140 kbit/s: any rate measured on loopback, however
        // busy the machine, lets the session step up to 1080p (at the real 5.6 Mbit/s a loaded run did not).
        let master = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/1/master.m3u8")
        var rung = 0
        let text = master.text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("#EXT-X-STREAM-INF:"), let resolution = line.range(of: "RESOLUTION=") else { return String(line) }
            rung += 1
            return "#EXT-X-STREAM-INF:BANDWIDTH=\(80_000 + 20_000 * rung)," + line[resolution.lowerBound...]
        }.joined(separator: "\n")
        try #require(rung == 3, "\(master.text)")
        let ceiling = Mutex<Int?>(nil)
        let choices = Mutex<[(index: Int, reason: String)]>([])
        let session = HLSLiveSession(url: url, fetcher: .shared, bufferedSeconds: { 10 }, pictureCeiling: { ceiling.withLock { $0 } },
                                     firstAnswer: (text, url)) { event in
            if case .variantChosen(let index, _, let reason) = event { choices.withLock { $0.append((index, reason)) } }
        }
        session.start()
        let consumer = Task { for await _ in session.segments {} }
        defer { session.cancel(); consumer.cancel() }
        func waitFor(_ what: String, _ condition: ([(index: Int, reason: String)]) -> Bool) async throws {
            let deadline = Date().addingTimeInterval(30)
            while !choices.withLock({ condition($0) }) {
                guard Date() < deadline else {
                    throw RawHTTPConnection.Failure(description: "timed out waiting for \(what): \(choices.withLock { $0 })")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        try await waitFor("1080p") { $0.last?.index == 2 }
        var told = choices.withLock { $0.count }
        ceiling.withLock { $0 = 1920 * 1080 }
        try await waitFor("a step down to 720p") { $0.count > told }
        #expect(choices.withLock { $0[told...].map(\.index) } == [1])
        #expect(choices.withLock { $0[told].reason } == "this box decodes the pictures above too slowly")
        told = choices.withLock { $0.count }
        ceiling.withLock { $0 = 1280 * 720 }
        try await waitFor("a step down to 240p") { $0.count > told }
        // Three segments more: none of them above 240p.
        try await Task.sleep(for: .seconds(6))
        #expect(choices.withLock { $0[told...].map(\.index) } == [0])
    }
}
