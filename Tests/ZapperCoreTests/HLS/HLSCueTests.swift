import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// Cue tags (EXT-X-DATERANGE, SCTE-35's CUE-OUT/CUE-IN/EXT-OATCLS-SCTE35) read into
/// cues for automation; Low-Latency HLS tags ignored; nothing in either fails a playlist.
@Suite struct HLSCueTests {
    let base = URL(string: "https://cdn.example.com/live/ch1/index.m3u8")!
    /// The SCTE-35 standard's splice_insert example: event 0x4800008F leaves the network for 60.293566 s.
    static let spliceBase64 = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="
    static let spliceHex = "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"

    func media(_ body: String) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try HLSParser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + body, url: base) else {
            throw HLSParseError(source: "test", line: 0, reason: "parsed as a master playlist")
        }
        return playlist
    }

    @Test func theStandardsSpliceInsertDecodes() throws {
        let bytes = [UInt8](try #require(Data(base64Encoded: Self.spliceBase64)))
        let splice = try #require(SpliceInsert.parse(bytes))
        #expect(splice.eventID == 0x4800_008F)
        #expect(splice.outOfNetwork)
        #expect(abs(try #require(splice.duration) - 60.293566) < 0.000_01)
        #expect(SpliceInsert.bytes(hex: Substring(Self.spliceHex)) == bytes)
        // Cut anywhere short of its break duration, it is not a splice (and nothing traps).
        for length in 0..<35 { #expect(SpliceInsert.parse(Array(bytes.prefix(length))) == nil) }
    }

    @Test func cueOutAndCueInMarkTheirSegments() throws {
        let playlist = try media("""
            #EXT-X-MEDIA-SEQUENCE:40
            #EXTINF:2,
            40.ts
            #EXT-X-CUE-OUT:30.000
            #EXT-OATCLS-SCTE35:\(Self.spliceBase64)
            #EXTINF:2,
            41.ts
            #EXT-X-CUE-OUT-CONT:ElapsedTime=2,Duration=30
            #EXTINF:2,
            42.ts
            #EXT-X-CUE-OUT:DURATION=15
            #EXTINF:2,
            43.ts
            #EXT-X-CUE-IN
            #EXTINF:2,
            44.ts
            """)
        #expect(playlist.segments.map(\.cues) == [
            [],
            // CUE-OUT and the SCTE-35 section announce one break: the splice's id, CUE-OUT's duration.
            [HLSCue(id: "1207959695", kind: .out, duration: 30)],
            [],
            [HLSCue(id: "seq-43", kind: .out, duration: 15)],
            [HLSCue(id: "seq-44", kind: .in)],
        ])
    }

    @Test func dateRangesBecomeCues() throws {
        let playlist = try media("""
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="show",CLASS="com.example.programme",START-DATE="2026-01-01T00:00:00Z",END-DATE="2026-01-01T00:30:00Z"
            #EXT-X-DATERANGE:ID="ad-7",START-DATE="2026-01-01T00:10:00Z",PLANNED-DURATION=30,SCTE35-OUT=\(Self.spliceHex)
            #EXT-X-DATERANGE:ID="ad-8",START-DATE="2026-01-01T00:11:00Z",SCTE35-OUT=\(Self.spliceHex)
            #EXT-X-DATERANGE:ID="ad-7",START-DATE="2026-01-01T00:10:00Z",DURATION=29.5,SCTE35-IN=0xFC00
            #EXT-X-DATERANGE:ID="chapter, with a comma",START-DATE="2026-01-01T00:00:00Z"
            #EXTINF:2,
            0.ts
            """)
        #expect(playlist.dateRanges == [
            HLSCue(id: "show", kind: .marker, duration: 1800, cueClass: "com.example.programme"),
            HLSCue(id: "ad-7", kind: .out, duration: 30),
            HLSCue(id: "ad-8", kind: .out, duration: 5_426_421.0 / 90_000),
            HLSCue(id: "ad-7", kind: .in),
            HLSCue(id: "chapter, with a comma", kind: .marker),
        ])
    }

    /// A cue tag that does not read is skipped; the playlist and its segments stand.
    @Test func badCueTagsAreSkippedNotFatal() throws {
        let playlist = try media("""
            #EXT-X-DATERANGE:START-DATE="2026-01-01T00:00:00Z"
            #EXT-X-DATERANGE:ID="x",DURATION=inf,CLASS="\(String(repeating: "c", count: 500))"
            #EXT-X-DATERANGE:ID="y",DURATION=-5,SCTE35-CMD=0xZZ
            #EXT-X-DATERANGE:ID="unclosed
            #EXT-X-CUE-OUT:1e300
            #EXT-OATCLS-SCTE35:not base64 at all
            #EXTINF:2,
            0.ts
            #EXT-X-CUE-OUT:nan
            #EXT-OATCLS-SCTE35:/DA=
            #EXTINF:2,
            1.ts
            """)
        #expect(playlist.segments.count == 2)
        #expect(playlist.dateRanges == [HLSCue(id: "x", kind: .marker, cueClass: String(repeating: "c", count: HLSCue.maxText)),
                                        HLSCue(id: "y", kind: .marker)])
        #expect(playlist.segments.map(\.cues) == [[HLSCue(id: "seq-0", kind: .out)], [HLSCue(id: "seq-1", kind: .out)]])
    }

    /// RFC 8216bis Low-Latency HLS: parts, preload hints, rendition reports and blocking-reload
    /// attributes are ignored; the full segments play as in any live playlist.
    @Test func lowLatencyTagsAreIgnoredSafely() throws {
        let playlist = try media("""
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=12.0,HOLD-BACK=6
            #EXT-X-PART-INF:PART-TARGET=0.33334
            #EXT-X-MEDIA-SEQUENCE:266
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:2.0,
            266.ts
            #EXT-X-PART:DURATION=0.33334,URI="267.0.mp4",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.33334,URI="267.1.mp4"
            #EXTINF:2.0,
            267.ts
            #EXT-X-PART:DURATION=0.33334,URI="268.0.mp4",INDEPENDENT=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="268.1.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=273,LAST-PART=2
            """)
        #expect(playlist.segments.map(\.sequence) == [266, 267])
        #expect(playlist.segments.map(\.uri.lastPathComponent) == ["266.ts", "267.ts"])
        #expect(playlist.holdBack == 6)
    }

    @Test func eachCueIsToldOncePerKindAndTheMemoryIsBounded() {
        var memory = CueMemory()
        let out = HLSCue(id: "ad-7", kind: .out, duration: 30)
        let told = [out, out, HLSCue(id: "ad-7", kind: .out, duration: 29), HLSCue(id: "ad-7", kind: .in)].map { memory.isNew($0) }
        #expect(told == [true, false, false, true])
        for index in 0..<CueMemory.capacity { _ = memory.isNew(HLSCue(id: "n\(index)", kind: .marker)) }
        let again = memory.isNew(out)
        #expect(again, "the oldest are forgotten first")
    }

    /// Arbitrary bytes never trap the SCTE-35 reader, nor arbitrary cue lines the parser.
    @Test func arbitraryCueInputNeverTraps() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...255).array(of: 0...80)) { (numbers: [Int]) in
            let bytes = numbers.map { UInt8($0) }
            var section = bytes
            if section.count > 13 {
                section[0] = 0xFC
                section[13] = 0x05
            }
            _ = SpliceInsert.parse(section)
            _ = SpliceInsert.parse(bytes)
        }
        let tags = ["#EXT-X-DATERANGE:", "#EXT-X-CUE-OUT:", "#EXT-X-CUE-IN", "#EXT-OATCLS-SCTE35:", "#EXT-X-CUE-OUT-CONT:", "#EXTINF:1,\nx.ts"]
        let values = ["ID=\"a\"", "ID=\"a\",DURATION=1e400", "ID=\"b\",SCTE35-OUT=0xFC30", "ID=\"c\",SCTE35-CMD=0x", "1e400", "-0", "/DAv",
                      "\"", ",", "=", "ID=\"d\",START-DATE=\"2026\",END-DATE=\"1900-01-01T00:00:00Z\"", "DURATION=30", ""]
        let line = zip(Gen.element(of: tags), Gen.element(of: values)).map { ($0 ?? "") + ($1 ?? "") }
        await propertyCheck(count: 1_000, input: line.array(of: 0...20)) { lines in
            _ = try? HLSParser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + lines.joined(separator: "\n"), url: base)
        }
    }
}
