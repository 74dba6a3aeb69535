import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Favourites, in-process on the virtual clock: the favourite key adds the channel on
    /// screen (logged, kept in the state), the panel's list shows them first, and with
    /// `flip-within = "favourites"` CH± steps through them alone.
    @Suite struct FavouriteBehaviourTests {
        @Test func theFavouriteKeyAddsAndCHStepsThroughFavourites() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(6), start: 2) { $0.config.flipWithin = .favourites }
            _ = harness.run(until: .firstFrame)
            harness.press("KEY_FAVORITES")
            let before = harness.log.count
            harness.press("KEY_5")
            _ = try #require(harness.run(until: .firstFrame, after: before))
            harness.press("KEY_FAVORITES")
            harness.run(milliseconds: 100)
            #expect(harness.events(.favourite).map { [$0["channel"], $0["on"]] } == [[.int(2), .bool(true)], [.int(5), .bool(true)]])
            let saved = try #require(harness.states.waitForSave { $0.favourites.count == 2 })
            #expect(saved.favourites == [2, 5].map { ChannelScript.url(channel: $0).absoluteString }, "kept by the channels' keys")
            #expect(harness.player.panelOrder.prefix(2).map(\.number) == [2, 5])
            #expect(harness.player.panelOrder.prefix(2).allSatisfy { $0.group == PanelOrder.favouritesHeading })
            // CH+ from 5 wraps to 2, CH- from 2 back to 5: the favourites alone.
            harness.press("KEY_CHANNELUP")
            harness.run(milliseconds: 500)
            #expect(harness.player.tuner.view.target == 2)
            harness.press("KEY_CHANNELDOWN")
            harness.run(milliseconds: 500)
            #expect(harness.player.tuner.view.target == 5)
            // Pressed again, the favourite key takes the channel away.
            harness.press("KEY_FAVORITES")
            harness.run(milliseconds: 100)
            #expect(harness.events(.favourite).last?["on"] == .bool(false))
            #expect(harness.player.favourites.numbers(in: harness.player.lineup) == [2])
            // The channels watched, most recent first, under "Recent" after the favourites; kept.
            let recent = harness.player.panelOrder.filter { $0.group == PanelOrder.recentsHeading }.map(\.number)
            #expect(recent == [5, 2], "\(harness.player.panelOrder.prefix(4))")
            #expect(harness.player.panelOrder.first?.group == PanelOrder.favouritesHeading)
            let kept = try #require(harness.states.waitForSave { $0.recents.count == 2 })
            #expect(kept.recents == [5, 2].map { ChannelScript.url(channel: $0).absoluteString })
        }

        /// In the panel's channel list, digits move the focus to that number; they tune nothing.
        @Test func digitsInTheListJumpToTheirNumber() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(12), start: 1)
            _ = harness.run(until: .firstFrame)
            for key in ["KEY_UP", "KEY_LEFT", "KEY_LEFT", "KEY_LEFT", "KEY_UP", "KEY_1", "KEY_1"] { harness.press(key) }
            harness.run(milliseconds: 100)
            let focused = try #require(harness.player.panel.focusedItem)
            #expect(harness.player.panelOrder[focused].number == 11)
            #expect(harness.events(.tune).count == 1, "digits in the list tune nothing")
            harness.run(milliseconds: 2000)
            harness.press("KEY_3")
            harness.run(milliseconds: 100)
            #expect(harness.player.panelOrder[harness.player.panel.focusedItem ?? 0].number == 3, "a pause starts a new number")
        }

        /// Held OK on a channel in the list or the guide, and the gamepad's north button held, add a
        /// favourite; short, they do what they always did (OK tunes from the list; north is Info).
        @Test func holdingOKOrNorthAddsAFavourite() async throws {
            let now = VirtualClock().date
            let harness = try PlayerHarness(FlipBehaviourTests.channels(8), start: 1,
                                            guide: GuideBehaviourTests.StaticGuide(channels: 8, now: now))
            _ = harness.run(until: .firstFrame)
            await harness.player.guide?.refresh()
            // The list: Up opens the panel, Left thrice reaches Channels, Up enters at channel 1; Down to 2; hold OK.
            for key in ["KEY_UP", "KEY_LEFT", "KEY_LEFT", "KEY_LEFT", "KEY_UP", "KEY_DOWN"] { harness.press(key) }
            harness.hold("KEY_ENTER", milliseconds: 900)
            #expect(harness.events(.favourite).map { $0["channel"] } == [.int(2)])
            #expect(harness.events(.tune).count == 1, "a held OK tunes nothing")
            #expect(harness.player.panel.isOpen)
            harness.press("KEY_BACK")
            harness.press("KEY_BACK")
            // The guide: a row down (channel 2 under Favourites first, then the lineup), hold OK there.
            harness.press("KEY_EPG")
            harness.press("KEY_DOWN")
            harness.hold("KEY_ENTER", milliseconds: 900)
            let focused = try #require(harness.player.guideGrid.map { harness.player.guideRows[$0.row] })
            #expect(harness.events(.favourite).last?["channel"] == .int(focused))
            #expect(harness.player.guideGrid != nil, "the guide stays open")
            harness.press("KEY_BACK")
            // The gamepad's north button: short is Info (no favourite), held adds the channel on screen.
            let count = harness.events(.favourite).count
            harness.press("BTN_NORTH")
            harness.run(milliseconds: 100)
            #expect(harness.events(.favourite).count == count)
            harness.hold("BTN_NORTH", milliseconds: 800)
            #expect(harness.events(.favourite).last.map { [$0["channel"], $0["on"]] } == [.int(1), .bool(true)])
        }

        /// A channel in two groups (`News;Sports`) is listed under each.
        @Test func aChannelInTwoGroupsIsListedInEach() {
            let lineup = [("News;Sports", 1), ("Sports", 2), (nil, 3)].map { group, number in
                LineupChannel(number: number, name: "C\(number)", url: ChannelScript.url(channel: number), group: group)
            }
            let order = PanelOrder.entries(lineup, favourites: Favourites(), recents: Recents())
            #expect(order.map { "\($0.group ?? "-") \($0.number)" } == ["News 1", "Sports 1", "Sports 2", "- 3"])
        }
    }
}
