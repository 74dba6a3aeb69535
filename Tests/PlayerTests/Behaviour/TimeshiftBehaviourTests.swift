import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Pause, play and back to live, in-process on the virtual clock: the picture held and the
    /// sound silent while paused (and no watch taking that for a stall), the stream asked to keep
    /// fetching, both playing on from where they stopped, `behind_ms` as long as the pause, and
    /// `live` tuning the channel again without a card.
    @Suite struct TimeshiftBehaviourTests {
        static func int(_ event: Event?, _ key: String) -> Int? {
            if case .int(let value)? = event?[key] { value } else { nil }
        }

        static func harness(_ configure: (inout Player.Options) -> Void = { _ in }) throws -> PlayerHarness {
            try PlayerHarness(FlipBehaviourTests.channels(3), start: 1) { options in
                options.traceFrames = true
                configure(&options)
            }
        }

        @Test func aPauseHoldsThePictureAndPlaysOnBehindLive() throws {
            let harness = try Self.harness()
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 2_000)
            #expect(harness.sink.peak(lastMilliseconds: 200) == 640, "channel 1's sound at volume 80")
            let lastBefore = try #require(Self.int(harness.events(.frame).last, "pts_ms"))
            harness.press("KEY_PLAYPAUSE")
            harness.run(milliseconds: 100)
            let paused = try #require(harness.events(.timeshift).last)
            #expect(paused["state"] == .string("paused") && Self.int(paused, "behind_ms") == 0 && paused["channel"] == .int(1))
            let framesPaused = harness.events(.frame).count
            let stream = try #require(harness.player.playback as? ScriptedStream)
            #expect(stream.behindLiveBudget == TimeshiftSettings().budget, "the stream keeps fetching while paused")
            // Nine seconds: longer than a stall (8 s); the picture watch and the stall watch stay quiet.
            harness.run(milliseconds: 9_000)
            #expect(harness.events(.frame).count == framesPaused, "no new picture while paused")
            #expect(harness.sink.peak(lastMilliseconds: 8_000) == 0, "silence while paused")
            #expect(harness.events(.stalled).isEmpty && harness.events(.loadFailed).isEmpty && harness.events(.frozen).isEmpty)
            let pausedAt = harness.events(.frame).last
            #expect(Self.int(pausedAt, "pts_ms").map { $0 - lastBefore } ?? 0 < 200, "frozen within a refresh or so of the key")

            harness.press("KEY_PLAY")
            harness.run(milliseconds: 500)
            let playing = try #require(harness.events(.timeshift).last)
            #expect(playing["state"] == .string("playing"))
            let behind = try #require(Self.int(playing, "behind_ms"))
            #expect(abs(behind - 9_100) <= 50, "\(behind) ms behind after a pause of 9.1 s")
            // The pictures go on from the one paused on: the next frame of the stream, none skipped.
            let after = harness.events(.frame).dropFirst(framesPaused).compactMap { Self.int($0, "pts_ms") }
            let held = try #require(Self.int(pausedAt, "pts_ms"))
            #expect(after.first.map { $0 - held } == 40, "the next picture at 25 fps: \(after.prefix(3)) after \(held)")
            #expect(harness.sink.peak(lastMilliseconds: 200) == 640, "the sound is back")
            #expect(harness.events(.tune).count == 1, "nothing was tuned again")
        }

        @Test func liveTunesTheChannelAgainWithoutACard() throws {
            let harness = try Self.harness()
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1_000)
            harness.press("KEY_SPACE")
            harness.run(milliseconds: 3_000)
            harness.press("KEY_SPACE")
            harness.run(milliseconds: 500)
            let mark = harness.log.count
            harness.press("KEY_STOP")
            let tune = try #require(harness.run(until: .tune, after: mark, within: 100))
            #expect(tune["reason"] == .string("live") && tune["channel"] == .int(1))
            #expect(harness.run(until: .firstFrame, after: mark) != nil)
            #expect(harness.events(.interstitialShown).count == 1, "only the start's card")
            let live = try #require(harness.events(.timeshift).last)
            #expect(live["state"] == .string("live") && Self.int(live, "behind_ms") == 0)
            let mark2 = harness.log.count
            harness.press("KEY_STOP")
            harness.run(milliseconds: 500)
            #expect(harness.run(until: .tune, after: mark2, within: 100) == nil, "at the live edge already")
        }

        @Test func aFlipWhilePausedGoesToTheNextChannelLive() throws {
            let harness = try Self.harness()
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1_000)
            harness.press("KEY_PAUSE")
            harness.run(milliseconds: 2_000)
            let mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(2))
            let live = try #require(harness.events(.timeshift).last)
            #expect(live["state"] == .string("live") && live["channel"] == .int(2))
            harness.run(milliseconds: 500)
            #expect(harness.sink.peak(lastMilliseconds: 200) == 1_280, "channel 2's sound plays")
        }

        @Test func withTimeshiftOffThePauseKeysDoNothing() throws {
            let harness = try Self.harness { $0.config.timeshift.enabled = false }
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1_000)
            harness.press("KEY_PLAYPAUSE")
            harness.run(milliseconds: 1_000)
            #expect(harness.events(.timeshift).isEmpty)
            #expect(harness.sink.peak(lastMilliseconds: 200) == 640)
        }
    }
}
