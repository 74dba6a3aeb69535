import Foundation
import Synchronization
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Day-parting in-process on the virtual clock (Friday 08:00 UTC): what applies at start is
    /// applied without touching the TV; at an edge standby blanks the screen, stops the channel
    /// and puts the TV to standby; a key wakes both; a later entry tunes its channel and sets its volume.
    @Suite struct ScheduleBehaviourTests {
        final class RecordingPower: TVPower {
            let calls = Mutex<[String]>([])
            func standby() throws { calls.withLock { $0.append("standby") } }
            func wake() throws { calls.withLock { $0.append("wake") } }
        }

        @Test func standbyAtAnEdgeAKeyWakesAndAnEntryTunesItsChannel() throws {
            let power = RecordingPower()
            let entries = [ScheduleEntry(days: Set(1...7), from: 7 * 60, to: 9 * 60, panel: false),
                           ScheduleEntry(days: Set(1...7), from: 8 * 60 + 1, to: 8 * 60 + 2, standby: true),
                           ScheduleEntry(days: Set(1...7), from: 8 * 60 + 3, to: 8 * 60 + 10, channel: 3, volume: 30)]
            let harness = try PlayerHarness(FlipBehaviourTests.channels(4), start: 1, tvPower: power) { options in
                options.config.schedule = entries
                options.timeZone = TimeZone(identifier: "UTC")!
            }
            _ = harness.run(until: .firstFrame)
            #expect(harness.events(.schedule).map { $0["entry"] } == [.int(1)], "the panel entry applies from the start")
            harness.press("KEY_UP")
            harness.run(milliseconds: 100)
            #expect(!harness.player.panel.isOpen, "the schedule keeps the panel closed")
            // 08:01: standby.
            let standby = try #require(harness.run(until: .standby, within: 70_000))
            #expect(standby["on"] == .bool(true) && standby["reason"] == .string("schedule"))
            harness.run(milliseconds: 200)
            #expect(harness.shows((0, 0, 0), tolerance: 4), "the screen is black: \(harness.centreColour)")
            #expect(harness.player.playback == nil && harness.player.currentStatus?.health == .standby)
            #expect(power.calls.withLock { $0 } == ["standby"])
            // A key wakes the box and the TV; the channel plays again.
            let mark = harness.log.count
            harness.press("KEY_OK")
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(1))
            #expect(power.calls.withLock { $0 } == ["standby", "wake"])
            #expect(harness.events(.standby).last?["reason"] == .string("key"))
            // 08:02 the standby entry ends (the box is awake already: the TV is left alone); 08:03 channel 3 at volume 30.
            let tuned = try #require(harness.run(until: .firstFrame, after: harness.log.count, within: 130_000))
            #expect(tuned["channel"] == .int(3))
            #expect(harness.player.audio.level.volume == 30)
            #expect(power.calls.withLock { $0 } == ["standby", "wake"])
            #expect(harness.events(.schedule).map { [$0["entry"], $0["action"]] }
                == [[.int(1), .string("began")], [.int(2), .string("began")], [.int(2), .string("ended")], [.int(3), .string("began")]])
        }
    }
}
