import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// Playlists as an attacker writes them: every value that once trapped the
/// process (a Swift arithmetic trap is a crash, and a box that resumes the
/// last channel then crashes forever) fails that playlist with its line and a
/// reason instead; what is accepted can be followed without overflow.
@Suite struct HostilePlaylistTests {
    let base = URL(string: "http://origin.example/live/media.m3u8")!

    func refusal(_ text: String) -> HLSParseError? {
        do {
            _ = try HLSParser.parse(text, url: base)
            return nil
        } catch {
            return error
        }
    }

    func media(_ head: String, segment: String = "#EXTINF:2,\ns1.ts") -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(head)\n\(segment)\n"
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e300", "3601", "9223372036854775807", "0", "-2"])
    func targetDurationsOutOfRangeAreRefused(_ value: String) throws {
        let error = try #require(refusal("#EXTM3U\n#EXT-X-TARGETDURATION:\(value)\n#EXTINF:2,\ns1.ts\n"))
        #expect(error.line == 2)
        #expect(error.reason.contains("EXT-X-TARGETDURATION:\(value)"))
    }

    @Test(arguments: ["EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE"])
    func sequenceNumbersNearInt64MaxAreRefused(_ tag: String) throws {
        for value in ["9223372036854775807", "9223372036854775806", "4611686018427387905", "99999999999999999999"] {
            let error = try #require(refusal(media("#\(tag):\(value)")), "\(tag):\(value)")
            #expect(error.line == 3 && error.reason.contains(tag))
        }
        // The largest accepted number, followed by many segments and a discontinuity, counts on without overflow.
        let segments = (0..<50).map { "\($0 == 25 ? "#EXT-X-DISCONTINUITY\n" : "")#EXTINF:2,\ns\($0).ts" }.joined(separator: "\n")
        guard case .media(let playlist) = try HLSParser.parse(media("#\(tag):\(HLSLimits.sequenceNumber)", segment: segments), url: base) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.count == 50)
        var cursor = LiveSegmentCursor()
        let update = cursor.update(playlist, at: 0)
        #expect(!update.segments.isEmpty)
        #expect(cursor.nextSequence.map { $0 > 0 } == true)
    }

    @Test func byteRangesThatOverflowAreRefused() throws {
        let max = Int.max
        for range in ["\(max)@\(max)", "1@\(max)", "\(max)", "281474976710657", "10@281474976710650", "-1@0", "5@-3"] {
            let error = try #require(refusal(media("#EXT-X-BYTERANGE:\(range)")), "\(range)")
            #expect(error.line == 3 && error.reason.contains("byte range"), "\(error)")
        }
        // A range with no offset continues the one before it: its end is checked too.
        let chained = "#EXT-X-BYTERANGE:281474976710000@600\n#EXTINF:2,\ns.ts\n#EXT-X-BYTERANGE:1000\n#EXTINF:2,\ns.ts"
        let error = try #require(refusal(media("", segment: chained)))
        #expect(error.line == 9 && error.reason.contains("EXT-X-BYTERANGE"), "\(error)")
        // A range that ends exactly at the limit is fine, and its cut does not overflow.
        guard case .media(let playlist) = try HLSParser.parse(media("#EXT-X-BYTERANGE:10@\(HLSLimits.byteRangeEnd - 10)"), url: base),
              let range = playlist.segments.first?.byteRange else {
            Issue.record("the range at the limit was refused")
            return
        }
        var cut = ByteRangeCut(range)
        #expect(cut.keep(count: 1 << 20).isEmpty)
    }

    @Test func extinfDurationsOutOfRangeAreRefused() throws {
        for value in ["inf", "nan", "1e308", "86401", "-1"] {
            let error = try #require(refusal(media("", segment: "#EXTINF:\(value),\ns1.ts")), "\(value)")
            #expect(error.line == 4 && error.reason.contains("EXTINF"), "\(error)")
        }
    }

    @Test func masterAttributesOutOfRangeAreRefused() throws {
        let lines = [
            "BANDWIDTH=99999999999999999999", "BANDWIDTH=1000000000001", "BANDWIDTH=1000,AVERAGE-BANDWIDTH=9223372036854775807",
            "BANDWIDTH=1000,RESOLUTION=99999x1", "BANDWIDTH=1000,RESOLUTION=4294967295x4294967295", "BANDWIDTH=1000,RESOLUTION=0x720",
            "BANDWIDTH=1000,FRAME-RATE=1e300", "BANDWIDTH=1000,FRAME-RATE=inf", "BANDWIDTH=1000,FRAME-RATE=-30",
        ]
        for attributes in lines {
            let error = try #require(refusal("#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\nv.m3u8\n"), "\(attributes)")
            #expect(error.line == 2, "\(attributes): \(error)")
        }
        for tag in ["#EXT-X-START:TIME-OFFSET=1e300", "#EXT-X-START:TIME-OFFSET=-inf", "#EXT-X-SERVER-CONTROL:HOLD-BACK=1e300"] {
            let error = try #require(refusal(media(tag)), "\(tag)")
            #expect(error.line == 3)
        }
    }

    @Test func tooManySegmentsOrVariantsAreRefused() throws {
        let segments = String(repeating: "#EXTINF:1,\ns.ts\n", count: HLSLimits.segments + 1)
        let error = try #require(refusal("#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + segments))
        #expect(error.reason.contains("more than \(HLSLimits.segments) segments"))
        let variants = String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", count: HLSLimits.variants + 1)
        #expect(try #require(refusal("#EXTM3U\n" + variants)).reason.contains("variants"))
    }

    /// Whatever the bytes, parsing returns a playlist or an error: it never traps.
    @Test func arbitraryPlaylistTextNeverTraps() async {
        let tags = ["#EXT-X-TARGETDURATION:", "#EXT-X-MEDIA-SEQUENCE:", "#EXT-X-DISCONTINUITY-SEQUENCE:", "#EXTINF:",
                    "#EXT-X-BYTERANGE:", "#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:", "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=",
                    "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"", "#EXT-X-STREAM-INF:BANDWIDTH=", "#EXT-X-START:TIME-OFFSET=",
                    "#EXT-X-SERVER-CONTROL:HOLD-BACK=", "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\",URI=", "s.ts", "v.m3u8", "#EXT-X-ENDLIST"]
        let values = ["0", "1", "-1", "inf", "nan", "1e308", "9223372036854775807", "9223372036854775808", "4611686018427387904",
                      "281474976710656@281474976710656", "2@", "@", "\"", "0x", "2026-11-24T10:00:00Z", "", ",", "x"]
        let line = zip(Gen.element(of: tags), Gen.element(of: values)).map { ($0 ?? "") + ($1 ?? "") }
        await propertyCheck(count: 1_000, input: line.array(of: 0...30)) { lines in
            let text = "#EXTM3U\n" + lines.joined(separator: "\n")
            if case .media(let playlist) = try? HLSParser.parse(text, url: base) {
                var cursor = LiveSegmentCursor()
                _ = cursor.update(playlist, at: 0)
                _ = cursor.update(playlist, at: 1)
                _ = cursor.nextReload(loadStarted: 1)
                for segment in playlist.segments { if let range = segment.byteRange { var cut = ByteRangeCut(range); _ = cut.keep(count: 188) } }
            }
        }
    }
}
