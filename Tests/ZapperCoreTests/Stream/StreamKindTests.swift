import PropertyBased
import Testing
@testable import ZapperCore

/// An answer's kind comes from its bytes and its Content-Type, never its URL.
@Suite struct StreamKindTests {
    private func ts(_ packets: Int, lead: [UInt8] = []) -> [UInt8] {
        lead + (0..<packets).flatMap { _ in [TSPacket.sync] + [UInt8](repeating: 0xFF, count: TSPacket.size - 1) }
    }

    @Test func playlistsAreHLSWhateverTheirType() {
        let text = Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8)
        #expect(StreamKind.sniff(contentType: "text/plain", head: text, ended: true) == .hls)
        #expect(StreamKind.sniff(contentType: nil, head: [0xEF, 0xBB, 0xBF] + Array(" \r\n".utf8) + text, ended: false) == .hls)
    }

    @Test func threePacketsOfSyncAreMPEGTSWhateverTheirType() {
        #expect(StreamKind.sniff(contentType: "application/octet-stream", head: ts(4), ended: false) == .mpegTS)
        #expect(StreamKind.sniff(contentType: "text/html", head: ts(3), ended: false) == .mpegTS)
        // Joined mid-packet: the run may start anywhere in the first packet.
        #expect(StreamKind.sniff(contentType: nil, head: ts(4, lead: [1, 2, 3]), ended: false) == .mpegTS)
        #expect(StreamKind.syncOffset(ts(3, lead: [9, 9])) == 2)
    }

    @Test func aFewBytesWaitForMore() {
        #expect(StreamKind.sniff(contentType: "video/mp2t", head: ts(1), ended: false) == nil)
        #expect(StreamKind.sniff(contentType: nil, head: Array(ts(2).prefix(300)), ended: false) == nil)
        #expect(StreamKind.sniff(contentType: nil, head: [], ended: false) == nil)
        // A playlist trickling in a few bytes at a time.
        #expect(StreamKind.sniff(contentType: "text/plain", head: Array("#EX".utf8), ended: false) == nil)
        #expect(StreamKind.sniff(contentType: "text/plain", head: Array("#EXTM3U".utf8), ended: false) == .hls)
        // A body that ended is decided on what it has.
        #expect(StreamKind.sniff(contentType: "video/mp2t", head: ts(1), ended: true)
            == .neither(.notAStream, reason: "the server said MPEG-TS (video/mp2t) but sent no MPEG-TS packets"))
    }

    @Test func neitherSaysWhy() {
        let page = Array("<!DOCTYPE html><html><body>Login</body></html>".utf8)
        #expect(StreamKind.sniff(contentType: "text/html; charset=utf-8", head: page, ended: true)
            == .neither(.webPage, reason: "the server sent a web page (text/html), not a stream"))
        #expect(StreamKind.sniff(contentType: "application/octet-stream", head: page, ended: false)
            == .neither(.webPage, reason: "the server sent a web page (text/html), not a stream"))
        let mpd = Array("<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"dynamic\">".utf8)
        #expect(StreamKind.sniff(contentType: "application/xml", head: mpd, ended: false)
            == .neither(.dash, reason: "a DASH manifest (.mpd): only HLS and MPEG-TS play"))
        #expect(StreamKind.sniff(contentType: "application/dash+xml", head: Array("<x/>".utf8), ended: true)
            == .neither(.dash, reason: "a DASH manifest (.mpd): only HLS and MPEG-TS play"))
        #expect(StreamKind.sniff(contentType: "video/mp2t", head: [], ended: true)
            == .neither(.empty, reason: "an empty answer (HTTP 200 with no body)"))
        #expect(StreamKind.sniff(contentType: "image/png", head: [0x89, 0x50, 0x4E, 0x47], ended: true)
            == .neither(.notAStream, reason: "neither an HLS playlist nor an MPEG-TS stream (image/png)"))
    }

    @Test func anHLSTypeWithAnythingElseGoesToTheParser() {
        #expect(StreamKind.sniff(contentType: "application/vnd.apple.mpegurl", head: Array("garbage".utf8), ended: true) == .hls)
    }

    @Test func hostileHeadsAreDecidedWithinTheSniffLimit() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.uint8().array(of: StreamKind.sniffBytes)) { head in
            #expect(StreamKind.sniff(contentType: nil, head: head, ended: false) != nil)
        }
    }
}
