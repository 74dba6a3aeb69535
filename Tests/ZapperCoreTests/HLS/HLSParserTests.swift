import Foundation
import Testing
@testable import ZapperCore

/// Real-world playlist shapes, and the malformed ones that must be refused
/// with their line and reason.
@Suite struct HLSParserTests {
    let base = URL(string: "https://cdn.example.com/live/ch1/master.m3u8")!

    func master(_ text: String) throws -> HLSMasterPlaylist {
        guard case .master(let playlist) = try HLSParser.parse(text, url: base) else {
            throw HLSParseError(source: "test", line: 0, reason: "parsed as a media playlist")
        }
        return playlist
    }

    func media(_ text: String) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try HLSParser.parse(text, url: base) else {
            throw HLSParseError(source: "test", line: 0, reason: "parsed as a master playlist")
        }
        return playlist
    }

    // MARK: master playlists

    @Test func appleStyleMasterWithRenditionsAndIFrames() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-INDEPENDENT-SEGMENTS

            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud1",LANGUAGE="en",NAME="English",AUTOSELECT=YES,DEFAULT=YES,CHANNELS="2",URI="a1/prog_index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud1",LANGUAGE="fr",NAME="Français",AUTOSELECT=YES,DEFAULT=NO,CHANNELS="2",URI="a2/prog_index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub1",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="s1/en/prog_index.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc1",LANGUAGE="en",NAME="English",AUTOSELECT=YES,DEFAULT=YES,INSTREAM-ID="CC1"

            #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=2168183,BANDWIDTH=2177116,CODECS="avc1.640020,mp4a.40.2",RESOLUTION=960x540,FRAME-RATE=60.000,CLOSED-CAPTIONS="cc1",AUDIO="aud1",SUBTITLES="sub1"
            v5/prog_index.m3u8
            #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=7968416,BANDWIDTH=8001098,CODECS="avc1.64002a,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=60.000,CLOSED-CAPTIONS="cc1",AUDIO="aud1",SUBTITLES="sub1"
            https://other.example.com/v9/prog_index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:AVERAGE-BANDWIDTH=183689,BANDWIDTH=187492,CODECS="avc1.64002a",RESOLUTION=1920x1080,URI="v7/iframe_index.m3u8"
            """)
        #expect(playlist.independentSegments)
        #expect(playlist.variants.count == 2)
        let first = playlist.variants[0]
        #expect(first.uri.absoluteString == "https://cdn.example.com/live/ch1/v5/prog_index.m3u8")
        #expect(first.bandwidth == 2_177_116 && first.averageBandwidth == 2_168_183)
        #expect(first.resolution == HLSResolution(width: 960, height: 540))
        #expect(first.codecs == ["avc1.640020", "mp4a.40.2"])
        #expect(first.frameRate == 60)
        #expect(first.audioGroup == "aud1" && first.subtitlesGroup == "sub1")
        #expect(playlist.variants[1].uri.absoluteString == "https://other.example.com/v9/prog_index.m3u8")

        let audio = playlist.renditions(.audio, group: "aud1")
        #expect(audio.map(\.language) == ["en", "fr"])
        #expect(audio[1].name == "Français" && !audio[1].isDefault && audio[1].autoselect)
        let subtitles = playlist.renditions(.subtitles, group: "sub1")
        #expect(subtitles.first?.uri?.absoluteString == "https://cdn.example.com/live/ch1/s1/en/prog_index.m3u8")
        #expect(playlist.renditions(.closedCaptions, group: "cc1").first?.uri == nil)
    }

    @Test func ffmpegStyleMasterWithMinimalAttributes() throws {
        // ffmpeg's hls muxer with -master_pl_name: BANDWIDTH first, no AVERAGE-BANDWIDTH or FRAME-RATE.
        let playlist = try master("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1210000,RESOLUTION=1280x720,CODECS=\"avc1.64001f,mp4a.40.2\"\nstream_0.m3u8\n\n")
        #expect(playlist.variants.count == 1)
        #expect(playlist.variants[0].averageBandwidth == nil && playlist.variants[0].frameRate == nil)
        #expect(playlist.variants[0].uri.absoluteString == "https://cdn.example.com/live/ch1/stream_0.m3u8")
    }

    @Test func crlfBomAndAttributeOrderDoNotMatter() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXT-X-STREAM-INF:RESOLUTION=426x240,AUDIO=\"a\",BANDWIDTH=500000\r\nlow.m3u8\r\n"
            + "#EXT-X-MEDIA:URI=\"de.m3u8\",NAME=\"Deutsch\",GROUP-ID=\"a\",TYPE=AUDIO,LANGUAGE=\"de\"\r\n"
        let playlist = try master(text)
        #expect(playlist.variants.first?.bandwidth == 500_000)
        #expect(playlist.renditions.first?.language == "de")
        #expect(playlist.renditions.first?.isDefault == false)
    }

    // MARK: media playlists

    @Test func liveMediaPlaylistAsZapperOriginWritesIt() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:897619398
            #EXT-X-DISCONTINUITY-SEQUENCE:89761939
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T05:26:36.000Z
            #EXTINF:2.000000,
            897619398.ts
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T05:26:38.000Z
            #EXTINF:2.000000,
            897619399.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T05:26:40.000Z
            #EXTINF:2.000000,
            897619400.ts
            """)
        #expect(playlist.isLive && playlist.targetDuration == 2)
        #expect(playlist.segments.map(\.sequence) == [897_619_398, 897_619_399, 897_619_400])
        #expect(playlist.segments.map(\.discontinuitySequence) == [89_761_939, 89_761_939, 89_761_940])
        #expect(playlist.segments.map(\.discontinuity) == [false, false, true])
        #expect(playlist.segments[0].programDate == Date(timeIntervalSince1970: 1_795_238_796))
        #expect(playlist.segments[2].uri.absoluteString == "https://cdn.example.com/live/ch1/897619400.ts")
        #expect(playlist.totalDuration == 6)
    }

    @Test func ffmpegVodOutputWithOptionalTagsMissing() throws {
        // No MEDIA-SEQUENCE (defaults to 0), titles after the comma, ENDLIST.
        let playlist = try media("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:3.986, first part\nseg0.ts\n#EXTINF:4,\nseg1.ts\n#EXT-X-ENDLIST\n")
        #expect(!playlist.isLive)
        #expect(playlist.segments.map(\.sequence) == [0, 1])
        #expect(playlist.segments[0].title == "first part" && playlist.segments[1].title == nil)
        #expect(playlist.version == nil)
    }

    @Test func startHoldBackByteRangesKeysAndMaps() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=18.0
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXT-X-MEDIA-SEQUENCE:10
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:1000@720
            media.mp4
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:2000
            media.mp4
            #EXT-X-KEY:METHOD=AES-128,URI="k2"
            #EXTINF:6.0,
            other.mp4
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6.0,
            clear.mp4
            """)
        #expect(playlist.holdBack == 18)
        #expect(playlist.start == HLSStartPoint(timeOffset: -12.5, precise: true))
        #expect(playlist.segments[0].initSection == HLSInitSection(uri: URL(string: "https://cdn.example.com/live/ch1/init.mp4")!,
                                                                    byteRange: HLSByteRange(length: 720, offset: 0)))
        #expect(playlist.segments[0].byteRange == HLSByteRange(length: 1000, offset: 720))
        #expect(playlist.segments[1].byteRange == HLSByteRange(length: 2000, offset: 1720))
        let firstKey = try #require(playlist.segments[0].key)
        #expect(firstKey.method == .aes128 && firstKey.iv == Array(0...15))
        let secondKey = try #require(playlist.segments[2].key)
        #expect(secondKey.uri?.absoluteString == "https://cdn.example.com/live/ch1/k2")
        // No IV: the media sequence number, big-endian.
        #expect(secondKey.initializationVector(sequence: 12) == Array(repeating: 0, count: 15) + [12])
        #expect(playlist.segments[3].key == nil)
    }

    /// Keys as ffmpeg's `-hls_key_info_file` and Apple's tools write them; methods this client
    /// cannot decrypt are kept by name (their segments are skipped, not the playlist).
    @Test func keysOfEveryMethodAndFormatAreKept() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:255
            #EXT-X-KEY:METHOD=AES-128,URI="../key/85.key",IV=0xfedcba98765432100123456789ABCDEF
            #EXTINF:2,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/86.key"
            #EXTINF:2,
            b.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key86",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:2,
            c.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="https://keys.example.com/cenc"
            #EXTINF:2,
            d.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMAT="com.example.wrapped"
            #EXTINF:2,
            e.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMAT="identity"
            #EXTINF:2,
            f.ts
            """)
        let keys = playlist.segments.map(\.key)
        #expect(keys[0]?.uri?.absoluteString == "https://cdn.example.com/live/key/85.key")
        #expect(keys[0]?.iv == [0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF])
        #expect(keys[0]?.initializationVector(sequence: 255) == keys[0]?.iv)
        // Without IV: sequence 256 as a 128-bit big-endian number.
        #expect(keys[1]?.iv == nil && keys[1]?.initializationVector(sequence: 256) == Array(repeating: 0, count: 14) + [1, 0])
        #expect(keys.map { $0?.isPlayable } == [true, true, false, false, false, true])
        #expect(keys[2]?.method == .sampleAES && keys[2]?.keyFormat == "com.apple.streamingkeydelivery")
        #expect(keys[2]?.uri == nil)  // skd: is never fetched, so it does not refuse the playlist
        #expect(keys[3]?.method == .other("SAMPLE-AES-CTR") && keys[3]?.method.name == "SAMPLE-AES-CTR")
    }

    @Test func anMP4MapMakesSegmentsFragmentedMP4() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            a.ts
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            0.m4s
            #EXT-X-MAP:URI="https://cdn.example.com/init-2.MP4",BYTERANGE="1354@100"
            #EXTINF:2,
            1.m4s
            #EXT-X-MAP:URI="pat-pmt.ts"
            #EXTINF:2,
            b.ts
            """)
        #expect(playlist.segments.map(\.container) == [.mpegTS, .fragmentedMP4, .fragmentedMP4, .mpegTS])
        #expect(playlist.segments[1].initSection == HLSInitSection(uri: URL(string: "https://cdn.example.com/live/ch1/init.mp4")!, byteRange: nil))
        #expect(playlist.segments[2].initSection?.byteRange == HLSByteRange(length: 1354, offset: 100))
    }

    /// An EXT-X-MAP after an AES-128 EXT-X-KEY is encrypted with it (its IV required);
    /// one before any key, or after METHOD=NONE, is in the clear.
    @Test func aKeyInEffectAtTheMapEncryptsItsSection() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="clear.mp4"
            #EXT-X-KEY:METHOD=AES-128,URI="k1.key",IV=0x000102030405060708090a0b0c0d0e0f
            #EXTINF:2,
            0.m4s
            #EXT-X-MAP:URI="sealed.mp4"
            #EXTINF:2,
            1.m4s
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="clear-again.mp4"
            #EXTINF:2,
            2.m4s
            """)
        let sections = playlist.segments.map(\.initSection)
        #expect(sections[0]?.key == nil && sections[0]?.uri.lastPathComponent == "clear.mp4")
        #expect(playlist.segments[0].key?.method == .aes128, "the fragment itself is encrypted")
        #expect(sections[1]?.key?.uri?.lastPathComponent == "k1.key" && sections[1]?.key?.iv?.count == 16)
        #expect(sections[2]?.key == nil)
        #expect(throws: HLSParseError.self) {
            try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\"\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:2,\n0.m4s\n")
        }
    }

    @Test func programDatesCarryOnUntilADiscontinuity() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T06:00:00.500+01:00
            #EXTINF:2,
            a.ts
            #EXTINF:2,
            b.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            c.ts
            """)
        #expect(playlist.segments[0].programDate == Date(timeIntervalSince1970: 1_795_237_200.5))
        #expect(playlist.segments[1].programDate == Date(timeIntervalSince1970: 1_795_237_202.5))
        #expect(playlist.segments[2].programDate == nil)
    }

    @Test(arguments: [
        ("2026-11-21T05:11:02Z", 1_795_237_862.0), ("2026-11-21T05:11:02.250Z", 1_795_237_862.25),
        ("2026-11-21T07:11:02+02:00", 1_795_237_862.0), ("2026-11-21T00:11:02-0500", 1_795_237_862.0),
        ("2026-11-21T05:11:02+00", 1_795_237_862.0), ("2000-02-29T00:00:00Z", 951_782_400.0),
    ])
    func programDateForms(text: String, seconds: Double) {
        #expect(ISO8601Parser.date(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["2026-13-01T00:00:00Z", "2026-11-21 05:11", "yesterday", "2026-11-21T05:11:02.Z", "2026-11-21T05:11:02+5"])
    func badProgramDates(text: String) {
        #expect(ISO8601Parser.date(text) == nil)
    }

    // MARK: malformed

    @Test(arguments: [
        ("#EXTINF:2,\na.ts\n", 1, "first line is not #EXTM3U"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:abc,\na.ts\n", 3, "no valid duration"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\na.ts\n", 3, "without #EXTINF"),
        ("#EXTM3U\n#EXTINF:2,\na.ts\n", 3, "without EXT-X-TARGETDURATION"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n", 3, "not followed by a segment URI"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n", 2, "no BANDWIDTH"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv.m3u8\n", 2, "not followed by its URI"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=big\nv.m3u8\n", 2, "RESOLUTION=big"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1\nv.m3u8\n", 2, "no closing quote"),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", 2, "SUBTITLES has no URI"),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"x\"\n", 2, "no GROUP-ID"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nfile:///etc/passwd\n", 3, "only http and https"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nconcat:a.ts|b.ts\n", 4, "concat"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128\n", 3, "EXT-X-KEY has no URI"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x1234\n", 3, "128-bit"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=SAMPLE-AES\n", 3, "EXT-X-KEY has no URI"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ0102030405060708090A0B0C0D0E0F\n", 3, "128-bit"),
        // A sign is no hex digit, though Swift's integer parsing would take "+f" as 15.
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x+f0102030405060708090A0B0C0D0E0F\n", 3, "128-bit"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:URI=\"k\"\n", 3, "no METHOD"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"file:///etc/key\"\n", 3, "only http and https"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n#EXT-X-BYTERANGE:100\na.ts\n", 5, "must follow a sub-range"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", 3, "mixes master and media"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:5\n", 5, "after the first segment"),
    ])
    func malformedPlaylistsAreRefusedWithLineAndReason(text: String, line: Int, reason: String) {
        do {
            let playlist = try HLSParser.parse(text, url: base)
            Issue.record("accepted: \(playlist)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.description.hasPrefix("https://cdn.example.com/live/ch1/master.m3u8:\(line): "))
        }
    }

    @Test func unknownTagsAndCommentsAreIgnored() throws {
        let playlist = try media("#EXTM3U\n# a comment\n#EXT-X-TARGETDURATION:2\n#EXT-X-FUTURE-TAG:X=1\n#EXT-X-CUE-OUT:30\n#EXTINF:2,\na.ts\n")
        #expect(playlist.segments.count == 1)
    }
}
