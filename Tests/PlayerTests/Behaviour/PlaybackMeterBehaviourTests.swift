import Foundation
import Synchronization
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// What the player tells its `PlaybackMeter` (the metrics' late and dropped pictures, A/V offset
    /// and underruns), in-process on the virtual clock.
    @Suite struct PlaybackMeterBehaviourTests {
        final class RecordingMeter: PlaybackMeter {
            let presentations = Mutex<[(pictureTime: Double, clock: Double, dropped: Int)]>([])
            let underruns = Atomic<Int>(0)
            func presented(pictureTime: Double, clock: Double, dropped: Int) {
                presentations.withLock { $0.append((pictureTime, clock, dropped)) }
            }
            func audioUnderrun() { underruns.add(1, ordering: .relaxed) }
        }

        @Test func picturesAreReportedWithTheClockAndWhatWasDroppedToReachThem() throws {
            let meter = RecordingMeter()
            // 120 pictures a second on a 60 Hz loop: every other picture is passed over.
            var fast = ChannelScript(colour: (200, 50, 50))
            fast.framesPerSecond = 120
            let harness = try PlayerHarness([fast], meter: meter)
            _ = harness.run(until: .firstFrame)
            #expect(meter.presentations.withLock { $0.isEmpty }, "the first picture comes before any clock")
            harness.run(milliseconds: 1000)
            let seen = meter.presentations.withLock { $0 }
            #expect((55...61).contains(seen.count), "\(seen.count) pictures in a second")
            let dropped = seen.map(\.dropped).reduce(0, +)
            #expect((50...61).contains(dropped), "\(dropped) dropped")
            // Each picture is the newest due on the audio clock, at most one frame of the channel behind it.
            #expect(seen.allSatisfy { $0.clock - $0.pictureTime >= -0.5 / 60 - 1e-9 && $0.clock - $0.pictureTime < 1.0 / 60 }, "\(seen.prefix(5))")
            #expect(meter.underruns.load(ordering: .relaxed) == 0)
        }

        @Test func afterAStillFirstPictureTheClockAndTheSoundStartWithTheStreamsNextPicture() throws {
            let meter = RecordingMeter()
            var script = ChannelScript(colour: (50, 50, 200))
            script.stillFor = 400
            let harness = try PlayerHarness([script], meter: meter)
            let first = try #require(harness.run(until: .firstFrame))
            harness.run(milliseconds: 1000)
            let started = try #require(harness.events(.audioStarted).first, "no sound after a still first picture")
            #expect(started.milliseconds - first.milliseconds >= 400, "the sound began with the still, not the stream")
            // The picture after the still is the stream's next one: nothing passed over to reach it.
            let seen = meter.presentations.withLock { $0 }
            #expect(seen.first.map { $0.pictureTime < 0.1 } == true, "\(seen.prefix(3))")
            #expect(seen.allSatisfy { $0.dropped == 0 }, "\(seen.map(\.dropped))")
        }

        @Test func soundThatStopsIsOneUnderrunAndPicturesAtTheirOwnRateDropNothing() throws {
            let meter = RecordingMeter()
            var script = ChannelScript(colour: (50, 200, 50))
            script.soundStopsAfter = 500
            let harness = try PlayerHarness([script], meter: meter)
            _ = harness.run(until: .firstFrame)
            harness.run(milliseconds: 300)
            #expect(meter.underruns.load(ordering: .relaxed) == 0)
            harness.run(milliseconds: 1000)
            #expect(meter.underruns.load(ordering: .relaxed) == 1, "one run of silence, told once")
            let seen = meter.presentations.withLock { $0 }
            #expect((30...34).contains(seen.count), "25 pictures a second for 1.3 s: \(seen.count)")
            #expect(seen.allSatisfy { $0.dropped == 0 })
        }
    }
}
