import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// The visual watchdog in-process on the virtual clock: pictures that keep coming but show the
    /// same thing, or black, for 10 s have the channel tuned again; when it persists, the error card
    /// says why. Moving pictures are left alone.
    @Suite struct PictureWatchBehaviourTests {
        @Test func aPictureThatFreezesIsTunedAgainAndTheCardSaysSoWhenItPersists() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3) { number, script in
                if number == 2 { script.pictureFreezesAfter = 1000; script.stallingTunes = 1...2 }
            }, start: 2)
            let first = try #require(harness.run(until: .firstFrame))
            let frozen = try #require(harness.run(until: .frozen, within: 20_000))
            #expect(frozen["seconds"] == .int(10) && frozen["channel"] == .int(2))
            // The picture stopped changing 1 s after the first one; 10 s later it is frozen.
            #expect((11_000...11_100).contains(frozen.milliseconds - first.milliseconds), "\(frozen.milliseconds - first.milliseconds) ms")
            #expect(harness.events(.stalled).isEmpty, "the pictures kept coming")
            let failed = try #require(harness.run(until: .loadFailed, after: harness.mark(after: frozen), within: 100))
            #expect(failed["kind"] == .string("frozen-picture"))
            let retune = try #require(harness.run(until: .tune, after: harness.mark(after: frozen), within: 100))
            #expect(retune["reason"] == .string("retry") && retune.milliseconds - frozen.milliseconds < 50)
            // Frozen again after the retune: the error card says why while the backoff runs.
            let second = try #require(harness.run(until: .frozen, after: harness.mark(after: retune), within: 20_000))
            harness.run(milliseconds: 500)
            guard case .error(let failure, _)? = harness.player.tuner.view.card?.state else {
                Issue.record("no error card: \(String(describing: harness.player.tuner.view.card))")
                return
            }
            #expect(failure.words == "The channel's picture froze")
            let backoff = try #require(harness.run(until: .tune, after: harness.mark(after: second), within: 3_000))
            harness.run(until: .firstFrame, after: harness.mark(after: backoff))
            harness.run(milliseconds: 15_000)
            #expect(harness.events(.frozen).count == 2, "the third tune moves")
        }

        @Test func aPictureThatGoesBlackIsTunedAgain() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3) { number, script in
                if number == 1 { script.pictureBlackAfter = 2000; script.stallingTunes = 1...1 }
            }, start: 1)
            let first = try #require(harness.run(until: .firstFrame))
            let black = try #require(harness.run(until: .black, within: 20_000))
            #expect(black["seconds"] == .int(10))
            #expect((12_000...12_100).contains(black.milliseconds - first.milliseconds), "\(black.milliseconds - first.milliseconds) ms")
            #expect(harness.events(.frozen).isEmpty, "black is told as black")
            let failed = try #require(harness.run(until: .loadFailed, after: harness.mark(after: black), within: 100))
            #expect(failed["kind"] == .string("black-picture"))
            let retune = try #require(harness.run(until: .tune, after: harness.mark(after: black), within: 100))
            #expect(retune["reason"] == .string("retry"))
            harness.run(until: .firstFrame, after: harness.mark(after: retune))
            harness.run(milliseconds: 1000)
            #expect(harness.shows(FlipBehaviourTests.colours[0]))
        }

        @Test func movingPicturesAndAWatchTurnedOffAreLeftAlone() throws {
            let moving = try PlayerHarness(FlipBehaviourTests.channels(2), start: 1)
            moving.run(until: .firstFrame)
            moving.run(milliseconds: 25_000)
            #expect(moving.events(.frozen).isEmpty && moving.events(.black).isEmpty && moving.events(.tune).count == 1)
            let off = try PlayerHarness(FlipBehaviourTests.channels(2) { _, script in script.pictureFreezesAfter = 0 }, start: 1) {
                $0.pictureWatch = nil
            }
            off.run(until: .firstFrame)
            off.run(milliseconds: 25_000)
            #expect(off.events(.frozen).isEmpty && off.events(.tune).count == 1)
        }
    }
}
