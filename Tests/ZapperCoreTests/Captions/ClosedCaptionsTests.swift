import Foundation
import Testing
@testable import ZapperCore

/// CLOSED-CAPTIONS in a master playlist, the ASS text of libavcodec's caption
/// decoder turned into lines, and picking one 608 data channel.
@Suite struct ClosedCaptionsTests {
    let base = URL(string: "https://cdn.example.com/live/master.m3u8")!

    func master(_ text: String) throws -> HLSMasterPlaylist {
        guard case .master(let playlist) = try HLSParser.parse(text, url: base) else {
            throw HLSParseError(source: "test", line: 0, reason: "parsed as a media playlist")
        }
        return playlist
    }

    @Test func closedCaptionRenditionsNameTheVariantsCaptions() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",NAME="English",INSTREAM-ID="CC1",DEFAULT=YES
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="es",NAME="Español",INSTREAM-ID="CC3"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",NAME="English (708)",INSTREAM-ID="SERVICE1"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="Odd",INSTREAM-ID="CC9"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="other",NAME="Elsewhere",INSTREAM-ID="CC2"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,CLOSED-CAPTIONS="cc"
            low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CLOSED-CAPTIONS=NONE
            none.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000000
            silent.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4000000,CLOSED-CAPTIONS="NONE"
            quoted.m3u8
            """)
        #expect(playlist.variants.map(\.closedCaptions) == [.group("cc"), .none, .unspecified, .group("NONE")])
        let tracks = playlist.captionTracks(for: playlist.variants[0])
        #expect(tracks == [CaptionTrack(channel: .cea608(1), name: "English", language: "en"),
                           CaptionTrack(channel: .cea608(3), name: "Español", language: "es"),
                           CaptionTrack(channel: .cea708(service: 1), name: "English (708)", language: "en")])
        #expect(playlist.captionTracks(for: playlist.variants[1]).isEmpty)
        #expect(playlist.captionTracks(for: playlist.variants[2]).isEmpty)
        // An INSTREAM-ID not known here is kept as a rendition but offers nothing.
        #expect(playlist.renditions.filter { $0.type == .closedCaptions }.count == 5)
        #expect(playlist.renditions.first { $0.name == "Odd" }?.instream == nil)
    }

    @Test func instreamIDs() {
        #expect(CaptionChannel(instreamID: "CC1") == .cea608(1))
        #expect(CaptionChannel(instreamID: "cc4") == .cea608(4))
        #expect(CaptionChannel(instreamID: "SERVICE63") == .cea708(service: 63))
        for bad in ["CC0", "CC5", "CC12", "SERVICE0", "SERVICE64", "SERVICE01", "SERVICE", "", "C1", "CC-1"] {
            #expect(CaptionChannel(instreamID: bad) == nil, "\(bad)")
        }
        #expect(CaptionChannel.cea608(3).instreamID == "CC3")
        #expect(CaptionChannel.cea608(3).field608 == 1)
        #expect(CaptionChannel.cea608(2).field608 == 0)
        #expect(CaptionChannel.cea708(service: 1).field608 == nil)
    }

    @Test func assDialogueBecomesLines() {
        // As ccaption_dec writes a two-row pop-on caption.
        let event = #"0,0,Default,,0,0,0,,{\an7}{\pos(38,213)}THIS IS THE SECOND CAPTION\N{\an7}{\pos(38,229)}IN TWO ROWS"#
        #expect(CaptionText.lines(fromASS: event) == ["THIS IS THE SECOND CAPTION", "IN TWO ROWS"])
        // Colours, italics and hard spaces; an empty event clears the screen.
        let styled = #"3,0,Default,,0,0,0,,{\an7}{\pos(38,28)}\h\hA {\i1}{\c&H00FF00&}green{\i0} word"#
        #expect(CaptionText.lines(fromASS: styled) == ["  A green word"])
        #expect(CaptionText.lines(fromASS: "4,0,Default,,0,0,0,,").isEmpty)
        // A comma in the text stays.
        #expect(CaptionText.lines(fromASS: "5,0,Default,,0,0,0,,YES, SIR") == ["YES, SIR"])
    }

    @Test func hostileASSIsCapped() {
        let long = "0,0,Default,,0,0,0,," + String(repeating: "X", count: 500) + String(repeating: #"\NY"#, count: 100)
        let lines = CaptionText.lines(fromASS: long)
        #expect(lines.count == CaptionText.maximumLines)
        #expect(lines[0].count == CaptionText.maximumColumns)
        #expect(CaptionText.lines(fromASS: "0,0,Default,,0,0,0,,{\\an7 never closed").isEmpty)
        #expect(CaptionText.lines(fromASS: "0,0,Default,,0,0,0,,A\u{7}\u{0}B") == ["AB"])
        #expect(CaptionText.lines(fromASS: String(repeating: ",", count: 100_000)).count <= CaptionText.maximumLines)
    }

    @Test func selectorKeepsOneDataChannel() {
        func pair(_ field: UInt8, _ hi: UInt8, _ lo: UInt8) -> [UInt8] {
            [0xFC | field, CEA608Selector.withOddParity(hi), CEA608Selector.withOddParity(lo)]
        }
        // CC2's resume caption loading and text, then CC1's, in field 1; CC3's in field 2.
        let data = pair(0, 0x1C, 0x20) + pair(0, 0x41, 0x42) + pair(0, 0x14, 0x20) + pair(0, 0x43, 0x44) + pair(1, 0x15, 0x20) + pair(1, 0x45, 0x46)
        var cc1 = CEA608Selector(number: 1)
        #expect(cc1.select(data) == pair(0, 0x14, 0x20) + pair(0, 0x43, 0x44))
        var cc2 = CEA608Selector(number: 2)
        #expect(cc2.select(data) == pair(0, 0x14, 0x20) + pair(0, 0x41, 0x42))
        var cc3 = CEA608Selector(number: 3)
        #expect(cc3.select(data) == pair(0, 0x15, 0x20) + pair(0, 0x45, 0x46))
        // Text before any control code belongs to no channel; invalid and 708 triplets are dropped.
        var fresh = CEA608Selector(number: 1)
        #expect(fresh.select(pair(0, 0x41, 0x42) + [0xF8, 0x94, 0x20] + [0xFE, 0x14, 0x20]).isEmpty)
        // Joined mid-caption: its preamble and text wait for the next caption mode command.
        var joined = CEA608Selector(number: 1)
        #expect(joined.select(pair(0, 0x14, 0x60) + pair(0, 0x49, 0x4E) + pair(0, 0x14, 0x2F)).isEmpty)
        #expect(joined.select(pair(0, 0x14, 0x25) + pair(0, 0x41, 0x42)) == pair(0, 0x14, 0x25) + pair(0, 0x41, 0x42))
        // A truncated triplet is ignored.
        #expect(fresh.select([0xFC, 0x94]).isEmpty)
    }

    @Test func oddParity() {
        #expect(CEA608Selector.withOddParity(0x00) == 0x80)
        #expect(CEA608Selector.withOddParity(0x14) == 0x94)
        #expect(CEA608Selector.withOddParity(0x20) == 0x20)
        #expect(CEA608Selector.withOddParity(0x41) == 0xC1)
    }
}
