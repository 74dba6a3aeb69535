import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// What happens while a channel plays, in-process on the virtual clock: the
    /// volume keys, a channel whose pictures stop, the state kept for the next start.
    @Suite struct PlayingBehaviourTests {
        static let red = (red: 200, green: 40, blue: 40)

        /// Volume down and mute: the level is said, shown for three seconds, heard in the
        /// sound written, and kept in the state.
        @Test func volumeKeysChangeTheSoundShowTheLevelAndAreKept() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3), start: 1)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 500)
            // The default volume, 80, on a squared curve: 1000 * 0.64.
            #expect(ZapperState().volume == 80)
            #expect(harness.sink.peak(lastMilliseconds: 200) == 640)
            harness.press("KEY_VOLUMEDOWN")
            harness.run(milliseconds: 400)
            #expect(harness.player.notices.showsVolume, "the level is on screen")
            #expect(harness.sink.peak(lastMilliseconds: 100) == 563, "75: 1000 * 0.5625")
            harness.press("KEY_MUTE")
            harness.run(milliseconds: 400)
            #expect(harness.sink.peak(lastMilliseconds: 100) == 0, "muted")
            #expect(harness.events(.volume).map { [$0["level"], $0["muted"]] } == [[.int(75), .bool(false)], [.int(75), .bool(true)]])
            harness.run(milliseconds: 2400)
            #expect(harness.player.notices.showsVolume)
            harness.run(milliseconds: 300)
            #expect(!harness.player.notices.showsVolume, "the level goes after 3 s")
            let saved = try #require(harness.states.waitForSave { $0.muted })
            #expect(saved.volume == 75 && saved.lastChannel == 1)
        }

        /// A playing channel whose pictures stop is tuned again after `stallAfter` (8 s) at once;
        /// stalling again, it is retried after the 2 s backoff; once it plays on, it stays.
        @Test func aChannelWhosePicturesStopIsTunedAgain() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3) { number, script in
                if number == 2 { script.picturesStopAfter = 3000; script.stallingTunes = 1...2 }
            }, start: 2)
            let first = try #require(harness.run(until: .firstFrame))
            let stalled = try #require(harness.run(until: .stalled, within: 20_000))
            #expect(stalled["seconds"] == .int(8))
            // The last picture of the first second's frames came at 3 s; 8 s later it stalled.
            #expect((11_000...11_100).contains(stalled.milliseconds - first.milliseconds), "\(stalled.milliseconds - first.milliseconds) ms")
            let retune = try #require(harness.run(until: .tune, after: harness.mark(after: stalled), within: 100))
            #expect(retune["reason"] == .string("retry") && retune.milliseconds - stalled.milliseconds < 50)
            let second = try #require(harness.run(until: .stalled, after: harness.mark(after: retune), within: 20_000))
            let backoff = try #require(harness.run(until: .tune, after: harness.mark(after: second), within: 3_000))
            #expect((2_000...2_100).contains(backoff.milliseconds - second.milliseconds), "\(backoff.milliseconds - second.milliseconds) ms")
            harness.run(until: .firstFrame, after: harness.mark(after: backoff))
            harness.run(milliseconds: 20_000)
            #expect(harness.events(.stalled).count == 2)
            #expect(harness.shows(FlipBehaviourTests.colours[1]))
        }

        /// With no sound device the pictures go on, on the system clock.
        @Test func withNoSoundDeviceThePicturesGoOn() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3), start: 1, sound: false)
            harness.run(until: .firstFrame)
            let mark = harness.log.count
            harness.run(milliseconds: 10_000)
            #expect(harness.log.first(EventName.loadFailed.rawValue, after: mark) == nil)
            #expect(harness.log.first(EventName.stalled.rawValue, after: mark) == nil)
            harness.press("KEY_CHANNELUP")
            #expect(harness.run(until: .firstFrame)?["channel"] == .int(2))
        }
    }
}

extension KeptStates {
    /// The last state saved once it satisfies `done` (the saving queue runs on its own thread:
    /// waited for at most two seconds of real time).
    func waitForSave(_ done: (ZapperState) -> Bool) -> ZapperState? {
        for _ in 0..<200 {
            if let last, done(last) { return last }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}
