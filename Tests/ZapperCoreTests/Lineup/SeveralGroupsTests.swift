import Foundation
import Testing
import ZapperCore

/// iptv-org's lists put a channel in several groups with `;`.
@Suite struct SeveralGroupsTests {
    static func channel(_ number: Int, _ group: String?) -> LineupChannel {
        LineupChannel(number: number, name: "C\(number)", url: URL(string: "http://example.net/\(number).m3u8")!, group: group)
    }

    @Test func groupsAreSplitAtSemicolonsAndCHStaysInTheFirst() {
        #expect(Self.channel(1, "News;Sports; News ;").groups == ["News", "Sports"])
        #expect(Self.channel(2, nil).groups.isEmpty && Self.channel(3, ";").groups.isEmpty)
        let lineup = [Self.channel(1, "News;Sports"), Self.channel(2, "Sports"), Self.channel(3, "News"), Self.channel(4, nil)]
        #expect(FlipWithin.group.ring(from: 1, lineup: lineup, favourites: Favourites()) == [1, 3])
        #expect(FlipWithin.group.ring(from: 2, lineup: lineup, favourites: Favourites()) == [1, 2])
        #expect(FlipWithin.group.ring(from: 4, lineup: lineup, favourites: Favourites()) == nil)
    }
}
