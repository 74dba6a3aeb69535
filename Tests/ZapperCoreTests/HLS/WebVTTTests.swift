import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct WebVTTTests {
    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    /// An HLS subtitle segment as Apple's tools write it: the map in the header, settings after the times.
    @Test func appleStyleSegmentMapsCuesOntoThePTSTimeline() throws {
        let text = """
            WEBVTT
            X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

            00:00:10.000 --> 00:00:12.500 align:middle line:90%
            First line
            second line

            00:00:12.600 --> 00:00:14.000
            Next

            """
        let document = try WebVTTParser.parse(text)
        #expect(document.timestampMap == WebVTTTimestampMap(mpegts: 900_000, local: 0))
        #expect(document.problems.isEmpty)
        #expect(document.cues.count == 2)
        let first = try #require(document.cues.first)
        // 900000 ticks = 10 s, plus the 10 s local time.
        #expect(close(first.start, 20) && close(first.end, 22.5))
        #expect(first.settings == ["align": "middle", "line": "90%"])
        #expect(first.text == "First line\nsecond line")
        #expect(first.line == 4)
        #expect(close(document.cues[1].start, 22.6))
    }

    /// ffmpeg's HLS muxer writes LOCAL first, and short mm:ss.ttt times.
    @Test func ffmpegStyleMapWithLocalFirstAndShortTimes() throws {
        let text = "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:01.000,MPEGTS:180000\n\n00:01.500 --> 00:03.000\nHi\n"
        let document = try WebVTTParser.parse(text)
        #expect(document.timestampMap == WebVTTTimestampMap(mpegts: 180_000, local: 1))
        let cue = try #require(document.cues.first)
        #expect(close(cue.start, 2.5) && close(cue.end, 4))
    }

    /// The W3C spec's shapes: BOM, CRLF, header text, NOTE/STYLE/REGION, ids, voice and class spans, entities.
    @Test func specShapesWithBlocksIdsTagsAndEntities() throws {
        let text = "\u{FEFF}WEBVTT - a title\r\nKind: captions\r\n\r\n"
            + "STYLE\r\n::cue { color: yellow }\r\n\r\n"
            + "REGION\r\nid:fred width:40%\r\n\r\n"
            + "NOTE a comment\r\nthat runs on two lines\r\n\r\n"
            + "intro\r\n00:00:01.000 --> 00:00:04.000 region:fred\r\n<v Roger Bingham>We are in <i>New York</i> &amp; <b>it's</b> late</v>\r\n\r\n"
            + "2\r\n01:02:03.456 --> 01:02:05.000\r\n<c.yellow.bg_blue>Tom &lt;3 Jerry</c>&nbsp;<00:00:02.000>karaoke &#x263A; &#65;\r\n\r\n"
            + "00:00:06.000 --> 00:00:07.000\n\n"
        let document = try WebVTTParser.parse(text)
        #expect(document.timestampMap == nil)
        #expect(document.problems.isEmpty, "\(document.problems)")
        #expect(document.cues.map(\.id) == ["intro", "2", nil])
        #expect(document.cues[0].text == "We are in New York & it's late")
        #expect(document.cues[0].settings == ["region": "fred"])
        #expect(close(document.cues[0].start, 1) && close(document.cues[0].end, 4))
        #expect(document.cues[1].text == "Tom <3 Jerry\u{00A0}karaoke \u{263A} A")
        #expect(close(document.cues[1].start, 3723.456))
        #expect(document.cues[2].text == "")
    }

    @Test func malformedCuesAreSkippedWithTheirLine() throws {
        let text = """
            WEBVTT

            00:00:1.000 --> 00:00:02.000
            bad start

            lonely id
            just text

            00:00:03.000 --> 00:00:02.000
            backwards

            00:00:04.000 --> 00:61.000
            bad end

            00:00:05.000 -->
            no end

            00:00:06.000 --> 00:00:07.000
            good
            00:00:08.000 --> 00:00:09.000
            also good, no blank line before it
            """
        let document = try WebVTTParser.parse(text)
        #expect(document.cues.map(\.text) == ["good", "also good, no blank line before it"])
        #expect(document.problems.map(\.line) == [3, 6, 9, 12, 15])
        #expect(document.problems[0].reason.contains("00:00:1.000"))
        #expect(document.problems[1].reason.contains("no timing line"))
        #expect(document.problems[2].reason.contains("ends before it starts"))
        #expect(document.problems[3].reason.contains("00:61.000"))
        #expect(document.problems[4].reason.contains("no end time"))
    }

    @Test func garbageIsAnErrorNamingTheLine() {
        #expect(throws: WebVTTParseError(line: 1, reason: "not WebVTT: the first line is not \"WEBVTT\"")) {
            try WebVTTParser.parse("<html><body>404</body></html>")
        }
        #expect(throws: WebVTTParseError.self) { try WebVTTParser.parse("WEBVTTX\n\n00:01.000 --> 00:02.000\nx") }
        #expect(throws: WebVTTParseError.self) { try WebVTTParser.parse("") }
        do {
            _ = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nx")
            Issue.record("a broken map was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("X-TIMESTAMP-MAP"))
        }
        do {
            _ = try WebVTTParser.parse("WEBVTT\n\n00:01.000 --> 00:02.000\nx\u{0}y")
            Issue.record("a NUL was accepted")
        } catch {
            #expect(error.line == 4)
        }
    }

    @Test func cueTimesWrapWithTheMPEGTSClock() throws {
        // The map stands 0.1 s before the 33-bit wrap; a cue 0.5 s in lands 0.4 s after it.
        let wrap = WebVTTParser.ptsWrap
        let text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(wrap - 9000),LOCAL:00:00:00.000\n\n00:00.000 --> 00:00.500\nacross\n"
        let cue = try #require(try WebVTTParser.parse(text).cues.first)
        #expect(close(cue.start, Double(wrap - 9000) / 90_000))
        #expect(close(cue.end, 0.4))
        // Placed next to a demuxer's unwrapped PTS, it continues past 2^33.
        let period = Double(wrap) / 90_000
        #expect(close(WebVTTParser.unwrap(cue.end, near: period - 0.05), period + 0.4))
        #expect(close(WebVTTParser.unwrap(cue.start, near: 0.2), -0.1))
        #expect(close(WebVTTParser.unwrap(12.5, near: 13), 12.5))
    }

    @Test func timestampsRoundTripAndMapsAreModuloTheWrap() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...(200 * 3_600_000 - 1)), Gen.int(in: 0...Int(WebVTTParser.ptsWrap - 1))) {
            millis, mpegts in
            func pad(_ value: Int, _ width: Int) -> String {
                String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
            }
            let hours = millis / 3_600_000, minutes = millis / 60_000 % 60, seconds = millis / 1000 % 60
            let long = "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis % 1000, 3))"
            #expect(WebVTTParser.timestamp(long[...]).map { Int(($0 * 1000).rounded()) } == millis, "\(long)")
            if hours == 0 {
                let short = "\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis % 1000, 3))"
                #expect(WebVTTParser.timestamp(short[...]).map { Int(($0 * 1000).rounded()) } == millis, "\(short)")
            }
            // Mapped onto the PTS clock: always within one wrap, and congruent to the unwrapped sum.
            let map = WebVTTTimestampMap(mpegts: Int64(mpegts), local: 0)
            let mapped = WebVTTParser.onTimeline(Double(millis) / 1000, map)
            let period = Double(WebVTTParser.ptsWrap) / 90_000
            #expect(mapped >= 0 && mapped < period)
            let unwrapped = Double(mpegts) / 90_000 + Double(millis) / 1000
            #expect(abs(WebVTTParser.unwrap(mapped, near: unwrapped) - unwrapped) < 1e-4)
        }
    }
}
