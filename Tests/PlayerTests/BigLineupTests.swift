import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// A lineup of 10,000 entries written as public lists are (`BigLineup`): it reads
/// whole, merges its repeated channels, and the real binary plays from it and
/// chooses from the panel's list at that size. (How fast: `zapper-bench lineup`.)
extension ZapperPlaybackTests {
    @Test func aTenThousandEntryLineupReadsWhole() {
        let text = BigLineup.text(count: 10_000, baseURL: "http://127.0.0.1:8600", channels: Array(1...8))
        let lineup = M3UPlusParser.parse(text, source: "big.m3u")
        #expect(lineup.problems.isEmpty, "\(lineup.problems.prefix(3))")
        // Every fiftieth entry is a second source of the one before it.
        #expect(lineup.channels.count == 9_800)
        #expect(lineup.channels.map(\.number) == Array(1...9_800))
        #expect(lineup.channels.filter { $0.backups.count == 1 }.count == 200)
        #expect(lineup.channels[0].headers.userAgent?.hasPrefix("Mozilla/5.0 (SMART-TV") == true, "#EXTVLCOPT wins over the attribute")
        #expect(lineup.channels[1].group == "Entertainment")
        #expect(lineup.guideURLs.map(\.path) == ["/guide.xml"])
    }

    @Test func theBinaryPlaysAndChoosesFromTenThousandEntries() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/big.m3u?count=10000")
        try #require(lineup.status == 200)
        let run = try await runZapper(lineup: lineup.text, arguments: ["--size", "640x360"], script: """
            wait-event first-frame 20000
            press KEY_UP
            wait 400
            press KEY_LEFT
            press KEY_LEFT
            press KEY_LEFT
            press KEY_UP
            press KEY_DOWN
            press KEY_DOWN
            press KEY_ENTER
            wait-event first-frame 20000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("9800 channels from"), "\(run.stderr.prefix(600))")
        #expect(run.named(.panelOpened).count == 1)
        #expect(run.tunes.map(\.reason) == [.start, .list], "\(run.named(.tune))")
        #expect(run.named(.firstFrame).count == 2)
    }
}
