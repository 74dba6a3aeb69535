import Foundation
import Testing
import ZapperCore

/// The full-screen guide as a layer: how it opens over the panel, what OK does now and ahead,
/// digits into the lineup part, the keys it lets through, and its closings.
struct GuideLayerTests {
    /// Thursday 2026-12-03 00:10 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_256_000 + 600)
    static let midnight = Date(timeIntervalSince1970: 1_796_256_000)
    static let opening = GuideLayer.Opening(favourites: [7], lineup: [1, 2, 7, 12], playing: 2, visibleRows: 8,
                                            span: midnight - 3600 ..< midnight + 86_400)

    /// Each channel: "Now n" from midnight to 00:30, "Next n" to 01:00.
    static func programmes(_ channel: Int, _ from: Date, _ to: Date) -> [Programme] {
        [Programme(channelID: "\(channel)", start: midnight, stop: midnight + 1800, title: "Now \(channel)"),
         Programme(channelID: "\(channel)", start: midnight + 1800, stop: midnight + 3600, title: "Next \(channel)")]
            .filter { $0.start < to && $0.stop > from }
    }

    static func context(mayOpen: Bool = true) -> GuideLayer.Context {
        GuideLayer.Context(mayOpen: mayOpen, date: now, opening: { opening }, programmes: programmes)
    }

    static func opened() -> GuideLayer {
        var layer = GuideLayer(entryTimeout: 1_500, maxDigits: 4)
        #expect(layer.take(.guide, now: 0, in: context()) == [.closePanel, .opened(channel: 2)])
        return layer
    }

    @Test func theGuideKeyOpensItOnThePlayingChannelsLineupRow() {
        var layer = GuideLayer(entryTimeout: 1_500, maxDigits: 4)
        #expect(layer.take(.guide, now: 0, in: Self.context(mayOpen: false)) == nil, "standby or the schedule says no")
        #expect(layer.take(.ok, now: 0, in: Self.context()) == nil, "closed: other keys pass")
        #expect(layer.take(.guide, now: 0, in: Self.context()) == [.closePanel, .opened(channel: 2)])
        #expect(layer.rows == [7, 1, 2, 7, 12] && layer.grid?.row == 2 && layer.focusedChannel == 2)
    }

    @Test func okTunesWhatIsOnAndSetsAReminderOnWhatIsToCome() {
        var layer = Self.opened()
        #expect(layer.take(.right, now: 10, in: Self.context())
                == [.focus(channel: 2, start: Int((Self.midnight + 1800).timeIntervalSince1970), title: "Next 2")])
        guard case .reminder(2, let programme)? = layer.take(.ok, now: 20, in: Self.context())?.first else {
            Issue.record("OK on a programme to come sets a reminder")
            return
        }
        #expect(programme.title == "Next 2" && layer.grid != nil, "the guide stays")
        _ = layer.take(.left, now: 30, in: Self.context())
        #expect(layer.take(.ok, now: 40, in: Self.context()) == [.closed(.chosen), .tune(channel: 2)])
        #expect(layer.grid == nil)
    }

    @Test func digitsJumpInTheLineupPartNotTheFavourites() {
        var layer = Self.opened()
        #expect(layer.take(.digit(7), now: 10, in: Self.context())
                == [.focus(channel: 7, start: Int(Self.midnight.timeIntervalSince1970), title: "Now 7")])
        #expect(layer.grid?.row == 3, "channel 7 in the lineup part, not its favourite row")
        _ = layer.take(.digit(1), now: 3_000, in: Self.context())
        #expect(layer.grid?.row == 1, "after a pause a new number")
        _ = layer.take(.digit(0), now: 3_100, in: Self.context())
        #expect(layer.grid?.row == 4, "10: the next number after it, 12")
    }

    @Test func soundKeysPassTheFavouriteKeyMarksTheRow() {
        var layer = Self.opened()
        #expect(layer.take(.volumeUp, now: 0, in: Self.context()) == nil)
        #expect(layer.take(.mute, now: 0, in: Self.context()) == nil)
        #expect(layer.take(.favourite, now: 0, in: Self.context()) == [.favourite(channel: 2)])
        #expect(layer.take(.info, now: 0, in: Self.context()) == [], "any other key is the guide's")
    }

    @Test func itClosesByBackByTimeAndWhenAnotherModeTakesTheScreen() {
        var layer = Self.opened()
        #expect(layer.take(.back, now: 0, in: Self.context()) == [.closed(.key)])
        _ = layer.take(.guide, now: 1_000, in: Self.context())
        _ = layer.take(.down, now: 2_000, in: Self.context())
        #expect(layer.tick(now: 2_000 + GuideLayer.idleMilliseconds - 1, in: Self.context()) == [])
        #expect(layer.tick(now: 2_000 + GuideLayer.idleMilliseconds, in: Self.context()) == [.closed(.inactive)])
        #expect(layer.close(.chosen) == [], "closing a closed guide says nothing")
    }
}
