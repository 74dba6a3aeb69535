import Foundation
import Testing
@testable import ZapperCore

/// Guides as lineups point at them: several URLs under both header names, a
/// shift per channel or for all, and channels matched by id, else by name.
@Suite struct GuideAlignmentTests {
    let hour = 3600.0
    let noon = Date(timeIntervalSince1970: 1_767_268_800)  // 2026-01-01 12:00 UTC

    @Test func bothHeaderNamesAndEveryListedGuideAreRead() {
        let lineup = M3UPlusParser.parse("""
            #EXTM3U url-tvg="https://a.example/guide.xml, https://b.example/guide.xml.gz" x-tvg-url="https://a.example/guide.xml,file:///etc/passwd"
            #EXTINF:-1 tvg-id="one",One
            https://live.example/1.m3u8
            """, source: "l.m3u")
        #expect(lineup.guideURLs.map(\.absoluteString) == ["https://a.example/guide.xml", "https://b.example/guide.xml.gz"])
        #expect(lineup.problems.map(\.line) == [1], "the file: guide is refused with its line")
    }

    @Test func tvgShiftIsReadInHoursAndABadOneIsIgnoredWithItsLine() {
        var lineup = M3UPlusParser.parse("""
            #EXTM3U
            #EXTINF:-1 tvg-id="in" tvg-shift="+5.5",India
            https://live.example/1.m3u8
            #EXTINF:-1 tvg-id="us" tvg-shift="-8",Pacific
            https://live.example/2.m3u8
            #EXTINF:-1 tvg-id="x" tvg-shift="1e308",Overflowing
            https://live.example/3.m3u8
            #EXTINF:-1 tvg-id="y",Plain
            https://live.example/4.m3u8
            """, source: "l.m3u")
        #expect(lineup.channels.map(\.guideShift) == [5.5, -8, nil, nil])
        #expect(lineup.problems.count == 1 && lineup.problems[0].line == 6)
        #expect(lineup.problems[0].message.contains("tvg-shift \"1e308\" is not a number of hours"))
        lineup.shiftGuide(byDefault: 1)
        #expect(lineup.channels.map(\.guideShift) == [5.5, -8, 1, 1], "a channel's own shift wins over the configuration's")
    }

    func programme(_ id: String, _ start: Double, _ title: String) -> Programme {
        Programme(channelID: id, start: noon.addingTimeInterval(start * hour), stop: noon.addingTimeInterval((start + 1) * hour), title: title)
    }

    @Test func aShiftMovesTheProgrammesOfThatChannel() {
        let guide = Guide(programmes: [programme("a", 0, "Noon"), programme("a", 1, "One")])
        var channel = LineupChannel(number: 1, name: "A", url: URL(string: "https://x.example/a")!, guideID: "a")
        channel.guideShift = 1
        // The guide says 12:00 for what this channel shows at 13:00.
        let now = guide.now(for: channel, at: noon.addingTimeInterval(1.5 * hour))
        #expect(now?.title == "Noon")
        #expect(now?.start == noon.addingTimeInterval(hour))
        #expect(guide.next(for: channel, after: noon.addingTimeInterval(1.5 * hour))?.title == "One")
        channel.guideShift = -0.5
        #expect(guide.now(for: channel, at: noon.addingTimeInterval(0.6 * hour))?.title == "One")
    }

    @Test func aChannelIsMatchedByIdElseByItsNameOrTvgName() {
        let guide = Guide(programmes: [programme("bbc1.uk", 0, "News"), programme("c4", 0, "Film"), programme("other", 0, "Quiz")],
                          channels: [GuideChannel(id: "bbc1.uk", displayNames: ["BBC One"]),
                                     GuideChannel(id: "c4", displayNames: ["Channel 4", "C4 HD"]),
                                     GuideChannel(id: "other", displayNames: ["Quiz TV"])])
        let url = URL(string: "https://x.example/a")!
        let byID = LineupChannel(number: 1, name: "Whatever", url: url, guideID: "bbc1.uk")
        let byName = LineupChannel(number: 2, name: "channel  4", url: url, guideID: "c4.missing")
        let byTvgName = LineupChannel(number: 3, name: "Quiz (720p)", url: url, attributes: ["tvg-name": "Quiz TV"])
        let unknown = LineupChannel(number: 4, name: "Nobody", url: url, guideID: "nobody")
        #expect(guide.now(for: byID, at: noon)?.title == "News")
        #expect(guide.now(for: byName, at: noon)?.title == "Film", "no programmes under its tvg-id: its name, without case or double spaces")
        #expect(guide.now(for: byTvgName, at: noon)?.title == "Quiz")
        #expect(guide.now(for: unknown, at: noon) == nil)
    }

    /// A guide read for a lineup keeps the channels its names match, not only its ids.
    @Test func theCollectorKeepsChannelsWantedByName() {
        let url = URL(string: "https://x.example/a")!
        let wanted = GuideWanted(lineup: [LineupChannel(number: 1, name: "Channel 4", url: url, guideID: "c4.missing"),
                                          LineupChannel(number: 2, name: "BBC", url: url, guideID: "bbc1.uk")])
        var collector = GuideCollector(source: "g.xml", wanted: wanted)
        collector.add(channel: GuideChannel(id: "c4", displayNames: ["CHANNEL 4"]))
        collector.add(channel: GuideChannel(id: "bbc1.uk", displayNames: ["BBC One"]))
        collector.add(channel: GuideChannel(id: "quiz", displayNames: ["Quiz TV"]))
        for id in ["c4", "bbc1.uk", "quiz"] { collector.add(programme(id, 0, id), stopKnown: true) }
        let guide = collector.finish()
        #expect(guide.channelIDs == ["bbc1.uk", "c4"])
    }
}
