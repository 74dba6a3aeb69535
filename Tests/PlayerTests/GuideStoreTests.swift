import Foundation
import Testing
import ZapperCore
import ZapperEngine
@testable import ZapperPlayer

/// The guide as the player keeps it: read at start, read again every refresh period, and a
/// refresh that fails keeps the guide it had.
@Suite(.timeLimit(.minutes(1)))
struct GuideStoreTests {
    private static func xmltv(title: String, channel: String = "a.test", displayName: String? = nil, from: Double = -600,
                              now: Date = Date()) -> String {
        let format = DateFormatter()
        format.dateFormat = "yyyyMMddHHmmss Z"
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = Locale(identifier: "en_US_POSIX")
        let start = format.string(from: now.addingTimeInterval(from))
        let stop = format.string(from: now.addingTimeInterval(from + 3600))
        let named = displayName.map { "<channel id=\"\(channel)\"><display-name>\($0)</display-name></channel>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <tv>\(named)<programme start="\(start)" stop="\(stop)" channel="\(channel)"><title>\(title)</title></programme></tv>

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

    /// Two guides (as a lineup's `url-tvg` lists them) are read and merged; a channel whose
    /// `tvg-id` neither has is found by its name; a `tvg-shift` moves its programmes.
    @Test func severalGuidesAreMergedAndAChannelIsMatchedByNameAndShifted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-guides-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.xml"), second = folder.appendingPathComponent("b.xml")
        try Self.xmltv(title: "Morning News").write(to: first, atomically: true, encoding: .utf8)
        // Two hours behind: the guide was written for another time zone; the channel says tvg-shift="+2".
        let written = Date()
        try Self.xmltv(title: "Quiz Hour", channel: "quiz.other", displayName: "Quiz TV", from: -600 - 7200, now: written)
            .write(to: second, atomically: true, encoding: .utf8)
        let url = URL(string: "http://127.0.0.1:9/a.m3u8")!
        let news = LineupChannel(number: 1, name: "A", url: url, guideID: "a.test")
        var quiz = LineupChannel(number: 2, name: "Quiz (720p)", url: url, guideID: "quiz.mine", attributes: ["tvg-name": "Quiz TV"])
        quiz.guideShift = 2
        let store = GuideStore(loader: XMLTVGuideLoader(sources: [first.path, folder.appendingPathComponent("missing.xml").path, second.path]),
                               lineup: [news, quiz], refreshSeconds: 3600)
        await store.refresh()
        #expect(store.lines(for: news, at: Date()).now?.title == "Morning News")
        let shifted = store.programme(for: quiz, at: Date())
        #expect(shifted?.title == "Quiz Hour", "a missing guide between the two must not lose the second")
        // XMLTV times are whole seconds: two hours on, it started ten minutes before it was written.
        #expect(abs((shifted?.start.timeIntervalSince(written) ?? 0) + 600) < 1, "shifted by two hours")
    }
}
