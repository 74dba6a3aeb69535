#if canImport(OriginKit)
import Foundation
import OriginKit
import Testing
import ZapperCore
import ZapperGuide

/// The guide the demo origin really serves (OriginKit's GuideWriter), matched
/// to the committed demo lineup by tvg-id.
@Suite struct OriginGuideTests {
    @Test func everyDemoChannelHasItsProgrammeNowAndNext() throws {
        let catalog = try ChannelCatalog.load(from: repositoryRoot.appendingPathComponent("channels/channels.json"))
        let lineupURL = repositoryRoot.appendingPathComponent("channels/demo.m3u")
        let lineup = M3UPlusParser.parse(try String(contentsOf: lineupURL, encoding: .utf8), source: lineupURL.path)
        let now = utcDate(2026, 11, 21, 6, 40)
        let xml = GuideWriter(catalog: catalog).xmltv(baseURL: "http://127.0.0.1:8600", now: now.timeIntervalSince1970)
        let document = try GuideReader.read(
            bytes: Array(xml.utf8), source: "http://127.0.0.1:8600/guide.xml",
            options: .init(window: GuideWindow(now: now), channelIDs: Set(lineup.channels.compactMap(\.guideID))))
        #expect(document.problems.isEmpty)
        #expect(!lineup.channels.isEmpty)
        for channel in lineup.channels {
            let id = try #require(channel.guideID)
            let current = try #require(document.guide.now(channelID: id, at: now), "\(channel.name)")
            #expect(current.start == utcDate(2026, 11, 21, 6, 30) && current.stop == utcDate(2026, 11, 21, 7))
            #expect(!current.title.isEmpty && current.subTitle != nil && current.description?.hasSuffix("On \(channel.name).") == true)
            #expect(current.rating?.system == "VCHIP" && current.rating?.value.hasPrefix("TV-") == true)
            #expect(document.guide.next(channelID: id, after: now)?.start == utcDate(2026, 11, 21, 7))
            #expect(document.guide.channels[id]?.displayNames.first == channel.name)
        }
        // The origin writes 2 hours back and 6 ahead; the window keeps 1 back.
        #expect(document.guide.programmes(channelID: lineup.channels[0].guideID!).count == 15)
    }
}
#endif
