import Foundation
import Testing
import ZapperCore
import ZapperEngine
@testable import ZapperPlayer

/// The guide as the player keeps it: read at start, read again every refresh period, and a
/// refresh that fails keeps the guide it had.
@Suite(.timeLimit(.minutes(1)))
struct GuideStoreTests {
    private static func xmltv(title: String) -> String {
        let format = DateFormatter()
        format.dateFormat = "yyyyMMddHHmmss Z"
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = Locale(identifier: "en_US_POSIX")
        let start = format.string(from: Date().addingTimeInterval(-600))
        let stop = format.string(from: Date().addingTimeInterval(3000))
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <tv><programme start="\(start)" stop="\(stop)" channel="a.test"><title>\(title)</title></programme></tv>

            """
    }

    private func title(_ store: GuideStore, _ channel: LineupChannel, becomes wanted: String) async throws -> Bool {
        for _ in 0..<100 {
            if store.lines(for: channel, at: Date()).now?.title == wanted { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func aRefreshReadsTheGuideAgainAndABadOneKeepsWhatItHad() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-guide-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.xmltv(title: "Morning News").write(to: file, atomically: true, encoding: .utf8)
        let channel = LineupChannel(number: 1, name: "A", url: URL(string: "http://127.0.0.1:9/a.m3u8")!, guideID: "a.test")
        let store = GuideStore(loader: XMLTVGuideLoader(source: file.path), lineup: [channel], refreshSeconds: 0.2)
        store.start()
        #expect(try await title(store, channel, becomes: "Morning News"))
        try Self.xmltv(title: "Late Film").write(to: file, atomically: true, encoding: .utf8)
        #expect(try await title(store, channel, becomes: "Late Film"), "the refresh did not read the new guide")
        try "<tv><programme".write(to: file, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .seconds(1))
        #expect(store.lines(for: channel, at: Date()).now?.title == "Late Film", "a broken guide replaced the one we had")
    }
}
