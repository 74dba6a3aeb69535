import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// Subtitles, lineups, keymaps, guide times and state files as an attacker
/// writes them: a bad value fails that cue, line or file with a reason, and
/// arbitrary bytes never trap.
@Suite struct HostileTextTests {
    @Test func cueTimesWithHugeHoursSkipTheCueInsteadOfTrapping() throws {
        let document = try WebVTTParser.parse("""
            WEBVTT

            9999999999999999:00:00.000 --> 9999999999999999:00:01.000
            overflowing hours

            2562047788015215:30:08.000 --> 2562047788015215:30:09.000
            overflowing sum

            00:01.000 --> 00:02.000
            kept
            """)
        #expect(document.cues.map(\.text) == ["kept"])
        #expect(document.problems.count == 2)
        #expect(document.problems.allSatisfy { $0.reason.contains("is not hh:mm:ss.ttt") }, "\(document.problems)")
        // Nine digits of hours is the most a time has.
        #expect(WebVTTParser.timestamp("999999999:59:59.999") == 999_999_999 * 3600 + 3599.999)
        #expect(WebVTTParser.timestamp("1000000000:00:00.000") == nil)
    }

    @Test(arguments: ["MPEGTS:9223372036854775807,LOCAL:00:00.000", "MPEGTS:8589934592,LOCAL:00:00.000",
                      "MPEGTS:0,LOCAL:9999999999999999:00:00.000", "MPEGTS:-1,LOCAL:00:00.000"])
    func timestampMapsOutOfRangeFailTheFile(_ map: String) throws {
        #expect(throws: WebVTTParseError.self) {
            try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=\(map)\n\n00:01.000 --> 00:02.000\nx\n")
        }
    }

    @Test func cuesFarFromTheMapStayOnTheTimeline() throws {
        // The largest gap between a cue and LOCAL (nine digits of hours, either way) is placed without trapping.
        for (map, cue) in [("00:00.000", "999999999:00:00.000 --> 999999999:00:01.000"),
                           ("999999999:00:00.000", "00:01.000 --> 00:02.000")] {
            let document = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:8589934591,LOCAL:\(map)\n\n\(cue)\nx\n")
            let start = try #require(document.cues.first?.start)
            #expect(start >= 0 && start < Double(WebVTTParser.ptsWrap) / WebVTTParser.ptsRate)
        }
    }

    static let pieces = ["WEBVTT", "\n", "\n\n", "-->", " ", ":", ".", "000", "00", "59", "99", "9999999999999999",
                         "X-TIMESTAMP-MAP=MPEGTS:", "9223372036854775807", ",LOCAL:", "NOTE", "<b>", "&amp;", "&#55296;",
                         "#EXTM3U", "#EXTINF:-1 tvg-chno=\"", "\" tvg-shift=\"", "group-title=\"", "http://h/x.m3u8", ",",
                         "KEY_A", "channel-up", "digit", "20261121", "+1400", "-9999", "{\"channel\":", "1e300", "}", "[", "\u{0}", "é"]

    /// Whatever the text, each parser returns a value or an error: it never traps.
    @Test func arbitraryTextNeverTrapsAnyParser() async {
        let text = Gen.element(of: Self.pieces).map { $0 ?? "" }.array(of: 0...60).map { $0.joined() }
        await propertyCheck(count: 2_000, input: text) { text in
            if let document = try? WebVTTParser.parse(text) {
                for cue in document.cues { _ = WebVTTParser.unwrap(cue.start, near: 1e9) }
            }
            _ = M3UPlusParser.parse(text, source: "fuzz.m3u")
            _ = try? Keymap.parse(text, source: "fuzz.keymap")
            _ = XMLTVTime.seconds(text)
            _ = try? ZapperState.decode(Data(text.utf8))
            _ = try? HLSParser.parse(text, url: URL(string: "http://h/p.m3u8")!)
            let lines = CaptionText.lines(fromASS: text)
            #expect(lines.count <= CaptionText.maximumLines && lines.allSatisfy { $0.unicodeScalars.count <= CaptionText.maximumColumns })
            var selector = CEA608Selector(number: 2)
            #expect(selector.select(Array(text.utf8)).count % 3 == 0)
        }
    }
}

extension HostileTextTests {
    @Test func lineupsAreBounded() {
        let name = String(repeating: "N", count: 100_000)
        var lines = ["#EXTM3U", "#EXTINF:-1,\(name)", "http://h/0.m3u8"]
        for index in 1...(LineupLimits.channels + 10) { lines += ["#EXTINF:-1 tvg-chno=\"x\(index)\",c", "http://h/\(index).m3u8"] }
        let lineup = M3UPlusParser.parse(lines.joined(separator: "\n"), source: "big.m3u")
        #expect(lineup.channels.count == LineupLimits.channels)
        #expect(lineup.channels.first?.name.count == LineupLimits.nameCharacters)
        #expect(lineup.problems.count == LineupLimits.problems + 1)
        #expect(lineup.problems.last?.message.hasSuffix("more problems not listed") == true)
        #expect(lineup.problems.allSatisfy { $0.message.count < 400 })
    }
}
