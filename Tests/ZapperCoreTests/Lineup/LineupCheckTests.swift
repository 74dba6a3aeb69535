import Foundation
import Testing
@testable import ZapperCore

/// `zapper check`'s report: a table a person reads, a summary by failure, JSON that
/// reads back, and the dead channels `hide-dead-channels` leaves out.
@Suite struct LineupCheckTests {
    let report = LineupCheckReport(lineup: "big.m3u", checkedAt: 1_767_268_800, problems: ["big.m3u:7: stream URL uses file:"], channels: [
        ChannelCheck(number: 2, name: "A channel with a very long name indeed (1080p)", url: "https://b.example/2.ts", ok: false,
                     kind: .unknown, failure: "http-404", reason: "This channel is not on the air: HTTP 404", milliseconds: 40),
        ChannelCheck(number: 1, name: "News", url: "https://a.example/1.m3u8", ok: true, kind: .hlsMaster, variants: 3,
                     codecs: ["avc1.64001f", "mp4a.40.2"], picture: "1280x720", milliseconds: 310),
        ChannelCheck(number: 3, name: "Film", url: "https://c.example/3", ok: false, kind: .other, failure: "unsupported",
                     reason: "the server sent a web page (text/html), not a stream", milliseconds: 12),
        ChannelCheck(number: 4, name: "Quiz", url: "https://d.example/4", ok: false, kind: .unknown, failure: "http-404",
                     reason: "HTTP 404", milliseconds: 9),
    ])

    @Test func theTableHasALineAChannelInNumberOrder() {
        let lines = report.table(nameWidth: 20).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("   1  News                  ok      hls-master  3         1280x720   310     avc1.64001f,mp4a.40.2"))
        #expect(lines[2].contains("A channel with a ve…  FAILED") && lines[2].hasSuffix("http-404: This channel is not on the air: HTTP 404"))
    }

    @Test func theSummaryCountsFailuresByKind() {
        #expect(report.summary == "1 of 4 channels play; 3 failed: 2 http-404, 1 unsupported; 1 bad line in the lineup")
        #expect(LineupCheckReport(lineup: "x", checkedAt: 0, problems: [], channels: [report.channels[0]]).summary == "1 of 1 channels play")
    }

    @Test func theJSONReadsBackAndNamesTheDead() throws {
        let read = try #require(LineupCheckReport.read(try report.json()))
        #expect(read == report)
        #expect(read.deadURLs == ["https://b.example/2.ts", "https://c.example/3", "https://d.example/4"])
        #expect(LineupCheckReport.read(Data("{\"lineup\": 3}".utf8)) == nil, "a bad file hides nothing")
    }
}
