import Foundation
import Testing
@testable import ZapperCore

@Suite struct M3UPlusParserTests {
    @Test func readsTheDemoLineup() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("channels/demo.m3u")
        let lineup = M3UPlusParser.parse(try String(contentsOf: url, encoding: .utf8), source: url.path)
        #expect(lineup.problems.isEmpty)
        #expect(lineup.channels.count >= 8)
        #expect(lineup.guideURLs.map(\.absoluteString) == ["http://127.0.0.1:8600/guide.xml"])
        let first = try #require(lineup.channel(number: 1))
        #expect(first.name == "Red One" && first.group == "News" && first.guideID == "red.zapper")
        #expect(first.url.absoluteString == "http://127.0.0.1:8600/ch/1/master.m3u8")
        #expect(first.logo?.absoluteString == "http://127.0.0.1:8600/logos/1.png")
    }

    @Test func readsWhatRealProvidersWrite() {
        // BOM, CRLF, attributes in another order and unquoted, a comma inside a
        // quoted value and in the title, #EXTVLCOPT and #KODIPROP lines,
        // #EXTGRP, a missing tvg-chno, extra unknown attributes.
        let text = "\u{FEFF}#EXTM3U x-tvg-url=\"http://guide.example/a.xml,http://guide.example/b.xml\" catchup=\"default\"\r\n"
            + "#EXTINF:-1 group-title=\"News, World\" tvg-chno=\"7\" tvg-id=\"bbc.uk\" tvg-logo=\"https://img.example/bbc.png\" catchup-days=\"7\",BBC One, London\r\n"
            + "#EXTVLCOPT:http-user-agent=Mozilla/5.0\r\n"
            + "#KODIPROP:inputstream=inputstream.adaptive\r\n"
            + "http://live.example/bbc1.m3u8\r\n"
            + "\r\n"
            + "#EXTINF:0 tvg-id=sky.uk tvg-name=\"Sky News\",\r\n"
            + "#EXTGRP:Rolling News\r\n"
            + "https://live.example/sky.m3u8?token=a,b\r\n"
        let lineup = M3UPlusParser.parse(text, source: "provider.m3u")
        #expect(lineup.problems.isEmpty)
        #expect(lineup.guideURLs.map(\.absoluteString) == ["http://guide.example/a.xml", "http://guide.example/b.xml"])
        #expect(lineup.channels.map(\.number) == [1, 7])
        let bbc = lineup.channel(number: 7)!
        #expect(bbc.name == "BBC One, London")
        #expect(bbc.group == "News, World")
        #expect(bbc.guideID == "bbc.uk")
        #expect(bbc.attributes["catchup-days"] == "7")
        #expect(bbc.line == 2)
        let sky = lineup.channel(number: 1)!
        #expect(sky.name == "Sky News")  // from tvg-name when the title is empty
        #expect(sky.group == "Rolling News")
        #expect(sky.url.absoluteString == "https://live.example/sky.m3u8?token=a,b")
    }

    @Test func readsChannelRatingsAndCensoredChannels() {
        let text = """
            #EXTM3U
            #EXTINF:-1 tvg-chno="1" tvg-rating="TV-PG",Rated
            http://a.example/1.m3u8
            #EXTINF:-1 tvg-chno="2" rating=16,Plain rating attribute
            http://a.example/2.m3u8
            #EXTINF:-1 tvg-chno="3" censored="1",Adult
            http://a.example/3.m3u8
            #EXTINF:-1 tvg-chno="4" censored="0",Not censored
            http://a.example/4.m3u8
            #EXTINF:-1 tvg-chno="5" censored="1" tvg-rating="16",Censored wins over a milder rating
            http://a.example/5.m3u8
            #EXTINF:-1 tvg-chno="6" tvg-rating="",Empty rating
            http://a.example/6.m3u8
            """
        let lineup = M3UPlusParser.parse(text, source: "rated.m3u")
        #expect(lineup.problems.isEmpty)
        #expect(lineup.channels.map(\.rating) == ["TV-PG", "16", "18", nil, "18", nil])
    }

    @Test func reportsBadLinesByNumberAndKeepsTheGoodOnes() {
        let text = """
            #EXTM3U
            #EXTINF:-1 tvg-chno="1",Good
            http://a.example/1.m3u8
            #EXTINF:-1 tvg-chno="2",Local file
            file:///etc/passwd
            #EXTINF:-1 tvg-chno="3",No URL
            #EXTINF:-1 tvg-chno="1",Clashing number
            http://a.example/4.m3u8
            #EXTINF:-1 tvg-chno="x",Bad number tvg-logo
            concat:http://a.example/5.m3u8
            #EXTINF:-1 tvg-logo="file:///secret.png",Sneaky logo
            http://a.example/6.m3u8
            #EXTINF:-1,Dangling at the end
            """
        let lineup = M3UPlusParser.parse(text, source: "bad.m3u")
        #expect(lineup.channels.map(\.name) == ["Good", "Clashing number", "Sneaky logo"])
        #expect(lineup.channels.map(\.number) == [1, 2, 3])
        #expect(lineup.channel(number: 3)?.logo == nil)
        let lines = lineup.problems.map(\.line)
        #expect(lines == [5, 6, 7, 10, 11, 13])
        #expect(lineup.problems[0].description.hasPrefix("bad.m3u:5: stream URL \"file:///etc/passwd\" uses file:"))
        #expect(lineup.problems[1].message.contains("has no stream URL"))
        #expect(lineup.problems[2].message.contains("tvg-chno \"1\""))
        #expect(lineup.problems[3].message.contains("concat"))
    }

    @Test func acceptsAPlainListWithoutHeaderOrExtinf() {
        let lineup = M3UPlusParser.parse("http://a.example/x.m3u8\nhttp://a.example/y.m3u8\n", source: "plain.m3u")
        #expect(lineup.channels.map(\.name) == ["Channel 1", "Channel 2"])
        #expect(lineup.problems.count == 1 && lineup.problems[0].line == 1)
    }

    @Test(arguments: ["file:///etc/passwd", "concat:http://a/b|http://c/d", "subfile:,,start,0,end,0,:http://x",
                      "rtmp://a.example/live", "http://", "/relative/path.m3u8", "data:text/plain,hi"])
    func urlPolicyRefusesEverythingButHTTP(url: String) {
        guard case .failure = MediaURLPolicy.check(url) else {
            Issue.record("\(url) was allowed")
            return
        }
    }

    @Test func urlPolicyResolvesRelativeReferencesOnlyToHTTP() throws {
        let base = URL(string: "http://origin.example/ch/1/master.m3u8")!
        #expect(try MediaURLPolicy.resolve("720p/index.m3u8", against: base).get().absoluteString
            == "http://origin.example/ch/1/720p/index.m3u8")
        guard case .failure = MediaURLPolicy.resolve("file:///etc/passwd", against: base) else {
            Issue.record("an absolute file: reference was allowed")
            return
        }
    }
}
