import Foundation
import Testing
import ZapperCore

/// Per-channel request headers as provider lineups give them: `#EXTVLCOPT` lines,
/// `user-agent`/`referrer` attributes (commas inside quotes), Kodi's `|` suffix.
struct RequestHeadersTests {
    let agent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"

    @Test func everyWayALineupGivesHeadersIsRead() throws {
        let lineup = M3UPlusParser.parse("""
            #EXTM3U
            #EXTINF:-1 tvg-id="a",VLC options
            #EXTVLCOPT:http-user-agent=\(agent)
            #EXTVLCOPT:http-referrer=https://portal.example/
            #EXTVLCOPT:http-origin=https://portal.example
            #EXTVLCOPT:network-caching=1000
            http://h/a.m3u8
            #EXTINF:-1 tvg-id="b" user-agent="\(agent)" http-referrer="https://b.example/",Attributes, with a comma
            http://h/b.m3u8
            #EXTINF:-1 tvg-id="c",Kodi
            http://h/c.m3u8|User-Agent=Mozilla%2F5.0%20(X11)&Referer=https%3A%2F%2Fc.example%2F&X-Other=1
            #EXTVLCOPT:http-user-agent=Before/1
            #EXTINF:-1 tvg-id="d" user-agent="Attribute/1",Option before EXTINF wins over the attribute
            http://h/d.m3u8
            #EXTINF:-1 tvg-id="e",None
            http://h/e.m3u8
            """, source: "l.m3u")
        #expect(lineup.problems.isEmpty, "\(lineup.problems)")
        let headers = lineup.channels.map(\.headers)
        #expect(headers[0] == RequestHeaders(userAgent: agent, referrer: "https://portal.example/", origin: "https://portal.example"))
        #expect(headers[1] == RequestHeaders(userAgent: agent, referrer: "https://b.example/"))
        #expect(lineup.channels[1].name == "Attributes, with a comma")
        #expect(headers[2] == RequestHeaders(userAgent: "Mozilla/5.0 (X11)", referrer: "https://c.example/"))
        #expect(lineup.channels[2].url.absoluteString == "http://h/c.m3u8")
        #expect(headers[3].userAgent == "Before/1")
        #expect(headers[4].isEmpty)
    }

    @Test func aHeaderThatCannotBeSentSkipsItsChannelWithTheLine() {
        let lineup = M3UPlusParser.parse("""
            #EXTM3U
            #EXTINF:-1,Injected
            http://h/a.m3u8|User-Agent=x%0D%0AX-Evil:%201
            #EXTINF:-1,Too long
            #EXTVLCOPT:http-user-agent=\(String(repeating: "a", count: 2000))
            http://h/b.m3u8
            #EXTINF:-1,Fine
            http://h/c.m3u8
            """, source: "l.m3u")
        #expect(lineup.channels.map(\.name) == ["Fine"])
        #expect(lineup.problems.map(\.line) == [3, 6])
        #expect(lineup.problems[0].message.contains("control characters"), "\(lineup.problems)")
        #expect(lineup.problems[1].message.contains("longer than 1024"), "\(lineup.problems)")
    }

    @Test func overlaidKeepsWhatTheOtherLacks() {
        let base = RequestHeaders(userAgent: "A", referrer: "R")
        #expect(base.overlaid(by: RequestHeaders(userAgent: "B")) == RequestHeaders(userAgent: "B", referrer: "R"))
    }
}
