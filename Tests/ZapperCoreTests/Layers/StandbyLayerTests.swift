import Foundation
import Testing
import ZapperCore

/// Day-parting and standby as a layer: what applies at start applies without touching the TV,
/// edges do touch it, a key wakes the box until the next edge, what began sets the channel and
/// the sound, and the panel opens only when nothing says no.
struct StandbyLayerTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// Thursday 2026-12-03 00:00 UTC.
    static let midnight = Date(timeIntervalSince1970: 1_796_256_000)
    static let daily = Set(1...7)
    static let entries = [
        ScheduleEntry(days: daily, from: 0, to: 6 * 60, standby: true),
        ScheduleEntry(days: daily, from: 6 * 60, to: 12 * 60, channel: 4, volume: 20, panel: false),
    ]

    static func layer(_ entries: [ScheduleEntry] = entries, panelDisabled: Bool = false) -> StandbyLayer {
        StandbyLayer(schedule: ScheduleWatcher(entries: entries, timeZone: utc), panelDisabled: panelDisabled)
    }

    static func context(hours: Double, target: Int = 1) -> StandbyLayer.Context {
        StandbyLayer.Context(date: midnight + hours * 3600, target: target) { [1, 4].contains($0) }
    }

    @Test func standbyAtStartLeavesTheTVAloneAndAKeyWakesIt() {
        var layer = Self.layer()
        #expect(layer.tick(now: 0, in: Self.context(hours: 2))
                == [.schedule(entry: 1, began: true), .standby(on: true, reason: "schedule", touchTV: false)])
        #expect(layer.inStandby && !layer.panelAllowed)
        #expect(layer.take(.volumeUp, now: 10, in: Self.context(hours: 2)) == [.standby(on: false, reason: "key", touchTV: true)])
        #expect(!layer.inStandby && layer.panelAllowed)
        #expect(layer.take(.volumeUp, now: 20, in: Self.context(hours: 2)) == nil, "awake: keys go on")
        #expect(layer.tick(now: 1_000, in: Self.context(hours: 3)) == [], "until the next edge")
    }

    @Test func theMorningEdgeWakesTheTVAndSetsChannelSoundAndPanel() {
        var layer = Self.layer()
        _ = layer.tick(now: 0, in: Self.context(hours: 5.9))
        #expect(layer.tick(now: 1_000, in: Self.context(hours: 6))
                == [.schedule(entry: 1, began: false), .schedule(entry: 2, began: true),
                    .standby(on: false, reason: "schedule", touchTV: true), .sound(volume: 20, muted: nil), .tune(channel: 4)])
        #expect(!layer.panelAllowed, "the morning entry says no panel")
        #expect(layer.tick(now: 2_000, in: Self.context(hours: 12))
                == [.schedule(entry: 2, began: false)], "what ended leaves the channel and the sound")
        #expect(layer.panelAllowed)
    }

    @Test func itIsLookedAtOnceASecond() {
        var layer = Self.layer()
        _ = layer.tick(now: 0, in: Self.context(hours: 5.9))
        #expect(layer.tick(now: 999, in: Self.context(hours: 6)) == [])
        #expect(!layer.tick(now: 1_000, in: Self.context(hours: 6)).isEmpty)
    }

    @Test func aChannelAlreadyTunedOrNotInTheLineupIsNotTuned() {
        var layer = Self.layer([ScheduleEntry(days: Self.daily, from: 0, to: 60, channel: 4),
                                ScheduleEntry(days: Self.daily, from: 60, to: 120, channel: 9)])
        #expect(layer.tick(now: 0, in: Self.context(hours: 0.5, target: 4)) == [.schedule(entry: 1, began: true)])
        #expect(layer.tick(now: 1_000, in: Self.context(hours: 1.5))
                == [.schedule(entry: 1, began: false), .schedule(entry: 2, began: true)], "no channel 9")
    }

    @Test func noScheduleNoTicksAndTheSignagePanelSettingDecides() {
        var none = StandbyLayer(schedule: nil, panelDisabled: true)
        #expect(none.tick(now: 0, in: Self.context(hours: 2)) == [] && !none.panelAllowed)
        #expect(none.take(.ok, now: 0, in: Self.context(hours: 2)) == nil)
        let empty = StandbyLayer(schedule: ScheduleWatcher(entries: []), panelDisabled: false)
        #expect(empty.panelAllowed && !empty.inStandby)
    }
}
