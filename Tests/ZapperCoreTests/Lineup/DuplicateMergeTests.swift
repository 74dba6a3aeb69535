import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct DuplicateMergeTests {
    @Test(arguments: [
        ("France 24 (720p)", "france 24"),
        ("France 24 HD", "france 24"),
        ("France 24 [Not 24/7]", "france 24"),
        ("France 24 (1080p) [Geo-blocked]", "france 24"),
        ("France  24 (1080p, HEVC) FHD", "france 24"),
        ("Channel 4", "channel 4"),
        ("BBC One (London)", "bbc one (london)"),
        ("HD", "hd"),
        ("(720p)", "(720p)"),
        ("Sky Sports F1 4K", "sky sports f1"),
        ("News (unclosed", "news (unclosed"),
    ])
    func namesLoseOnlyTheirTags(name: String, compared: String) {
        #expect(DuplicateMerge.comparableName(name) == compared)
    }

    static let lineup = """
        #EXTM3U
        #EXTINF:-1 tvg-id="France24.fr",France 24 (1080p)
        http://a.example/f24.m3u8
        #EXTINF:-1 tvg-id="Other.fr",Other
        http://a.example/other.m3u8
        #EXTINF:-1 tvg-id="France24.fr",France 24 (720p) [Not 24/7]
        #EXTVLCOPT:http-user-agent=Backup/1.0
        http://b.example/f24.m3u8
        #EXTINF:-1 tvg-id="Same.id",BBC One
        http://a.example/bbc1.m3u8
        #EXTINF:-1 tvg-id="Same.id",BBC Two
        http://a.example/bbc2.m3u8
        #EXTINF:-1 tvg-id="France24.fr",France 24 HD
        http://c.example/f24.m3u8
        #EXTINF:-1,No Id
        http://a.example/none.m3u8
        #EXTINF:-1,No Id
        http://b.example/none.m3u8
        """

    @Test func entriesOfOneChannelBecomeOneWithOrderedSourcesAndNoGaps() throws {
        let lineup = M3UPlusParser.parse(Self.lineup, source: "test.m3u")
        #expect(lineup.problems.isEmpty, "\(lineup.problems)")
        #expect(lineup.channels.map(\.number) == [1, 2, 3, 4, 5, 6], "numbered after merging: no gaps")
        #expect(lineup.channels.map(\.name) == ["France 24 (1080p)", "Other", "BBC One", "BBC Two", "No Id", "No Id"])
        let france = try #require(lineup.channel(number: 1))
        #expect(france.sources.map(\.url.host) == ["a.example", "b.example", "c.example"])
        #expect(france.sources.map(\.headers.userAgent) == [nil, "Backup/1.0", nil], "each source keeps its own headers")
        #expect(france.playing(source: 1).url.absoluteString == "http://b.example/f24.m3u8")
        #expect(france.playing(source: 1).headers.userAgent == "Backup/1.0")
        #expect(france.playing(source: 9) == france)
        #expect(lineup.channels.dropFirst().allSatisfy { $0.backups.isEmpty })
    }

    @Test func theSwitchTurnsMergingOff() {
        let lineup = M3UPlusParser.parse(Self.lineup, source: "test.m3u", mergeDuplicates: false)
        #expect(lineup.channels.count == 8)
        #expect(lineup.channels.allSatisfy { $0.backups.isEmpty })
    }

    @Test func aMergedChannelKeepsItsFirstEntrysNumberAndLaterNumbersAreFree() {
        let text = """
            #EXTM3U
            #EXTINF:-1 tvg-id="x" tvg-chno="5",X
            http://a.example/x.m3u8
            #EXTINF:-1 tvg-id="x" tvg-chno="2",X HD
            http://b.example/x.m3u8
            #EXTINF:-1,Y
            http://a.example/y.m3u8
            """
        let lineup = M3UPlusParser.parse(text, source: "test.m3u")
        #expect(lineup.channels.map(\.number) == [1, 5], "Y takes 1; the duplicate's 2 is not reserved")
        #expect(lineup.channel(number: 5)?.backups.count == 1)
    }

    @Test func anExactRepeatIsSkippedAndSourcesAreBounded() {
        var text = "#EXTM3U\n#EXTINF:-1 tvg-id=\"x\",X\nhttp://a.example/0.m3u8\n#EXTINF:-1 tvg-id=\"x\",X\nhttp://a.example/0.m3u8\n"
        for index in 1...LineupLimits.sourcesPerChannel {
            text += "#EXTINF:-1 tvg-id=\"x\",X (\(index * 100 + 80)p)\nhttp://a.example/\(index).m3u8\n"
        }
        let lineup = M3UPlusParser.parse(text, source: "test.m3u")
        #expect(lineup.channels.map(\.sources.count) == [LineupLimits.sourcesPerChannel, 1])
        #expect(lineup.problems.map(\.line) == [4, 2 * LineupLimits.sourcesPerChannel + 4], "\(lineup.problems)")
    }

    /// Whatever the entries: every entry is in one channel exactly once (or a repeat),
    /// a channel's entries share the id and the compared name, its first entry comes
    /// before the others, and different ids or names never share a channel.
    @Test func groupingKeepsEveryEntryAndNeverMixesChannels() async {
        let names = ["News", "News HD", "News (720p)", "Sport", "Sport [Not 24/7]", "Movies", "News 2"]
        let entry = zip(Gen.int(in: 0...3), Gen.int(in: 0...(names.count - 1)), Gen.int(in: 0...4)).map { drawn in
            let (id, name, host) = drawn
            return DuplicateMerge.Entry(guideID: id == 0 ? nil : "id\(id)", name: names[name],
                                 source: LineupSource(url: URL(string: "http://h\(host).example/s.m3u8")!))
        }
        await propertyCheck(count: 300, input: entry.array(of: 0...40), Gen.int(in: 1...4)) { entries, limit in
            let result = DuplicateMerge.group(entries, limit: limit)
            let placed = result.channels.flatMap { $0 } + result.repeated
            #expect(placed.sorted() == Array(entries.indices))
            #expect(result.channels.map { $0[0] } == result.channels.map { $0[0] }.sorted())
            for channel in result.channels {
                #expect(channel.count <= limit && channel == channel.sorted())
                let first = entries[channel[0]]
                for index in channel.dropFirst() {
                    #expect(entries[index].guideID == first.guideID && first.guideID != nil)
                    #expect(DuplicateMerge.comparableName(entries[index].name) == DuplicateMerge.comparableName(first.name))
                }
                #expect(Set(channel.map { entries[$0].source.url }).count == channel.count)
            }
            #expect(DuplicateMerge.group(entries, enabled: false, limit: limit).channels == entries.indices.map { [$0] })
        }
    }
}
