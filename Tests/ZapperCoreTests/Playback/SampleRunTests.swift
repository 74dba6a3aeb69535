import Testing
import ZapperCore

/// The sound queue's rules: one run on its timestamps (overlaps lose the overlap, gaps
/// are led in by silence), late sound dropped, early sound led in by silence.
struct SampleRunTests {
    /// `frames` stereo frames whose left and right samples both count up from `from`.
    static func block(_ frames: Int, from: Int = 1) -> [Int16] {
        (0..<frames).flatMap { [Int16(truncatingIfNeeded: from + $0), Int16(truncatingIfNeeded: from + $0)] }
    }

    @Test func soundIsTakenInOrderFromWhereItStarts() throws {
        var run = SampleRun(sampleRate: 1000)
        run.append(Self.block(100), at: 5)
        #expect(run.waitingFrames == 100)
        let result1 = run.take(frames: 40, from: 5)
        let first = try #require(result1)
        #expect(first == AudioTake(time: 5, samples: Self.block(40), lead: 0))
        let result2 = run.take(frames: 100, from: 5.04)
        let second = try #require(result2)
        #expect(second.samples == Self.block(60, from: 41))
        #expect(run.hasRunDry)
        let result3 = run.take(frames: 10, from: 5.1)
        #expect(result3 == nil)
    }

    @Test func lateSoundIsDroppedAndEarlyAskLeadsWithSilence() throws {
        var run = SampleRun(sampleRate: 1000)
        run.append(Self.block(100), at: 1)
        // Asked 30 ms after the run starts: the first 30 frames are gone.
        let result4 = run.take(frames: 10, from: 1.03)
        let late = try #require(result4)
        #expect(late == AudioTake(time: 1.03, samples: Self.block(10, from: 31), lead: 0))
        // Asked 20 ms before the next waiting frame (1.04): 20 frames of silence lead in.
        let result5 = run.take(frames: 30, from: 1.02)
        let early = try #require(result5)
        #expect(early.lead == 20)
        #expect(early.time == 1.02)
        #expect(early.samples == [Int16](repeating: 0, count: 40) + Self.block(10, from: 41))
    }

    @Test func askingPastAllTheSoundDropsItAndSaysNothingWaits() {
        var run = SampleRun(sampleRate: 1000)
        run.append(Self.block(50), at: 0)
        let result6 = run.take(frames: 10, from: 2)
        #expect(result6 == nil)
        #expect(run.waitingFrames == 0)
        #expect(run.hasRunDry)
    }

    @Test func aBlockOverlappingTheEndLosesTheOverlap() throws {
        var run = SampleRun(sampleRate: 48_000)
        run.append(Self.block(1024), at: 10)
        // The next block starts 200 frames before the run's end (AAC padding at a discontinuity).
        run.append(Self.block(1024, from: 5000), at: 10 + 824.0 / 48_000)
        #expect(run.waitingFrames == 1024 + 824)
        let result7 = run.take(frames: 2048, from: 10)
        let all = try #require(result7)
        #expect(Array(all.samples[2048..<2050]) == [5200, 5200])
    }

    @Test func aBlockAfterAGapIsLedInBySilenceAndAJitterIsNot() throws {
        var run = SampleRun(sampleRate: 48_000)
        run.append(Self.block(480), at: 0)
        // 50 frames late: within the slack, it follows straight on.
        run.append(Self.block(480, from: 1000), at: 530.0 / 48_000)
        #expect(run.waitingFrames == 960)
        // 480 frames after the end: 480 frames of silence first.
        run.append(Self.block(480, from: 2000), at: (960.0 + 480) / 48_000)
        #expect(run.waitingFrames == 960 + 480 + 480)
        let result8 = run.take(frames: 2000, from: 0)
        let all = try #require(result8)
        #expect(all.samples[1920..<2880].allSatisfy { $0 == 0 })
        #expect(all.samples[2880] == 2000)
    }

    @Test func aLongGapIsLedInByASecondAtMost() {
        var run = SampleRun(sampleRate: 1000)
        run.append(Self.block(10), at: 0)
        run.append(Self.block(10), at: 3600)
        #expect(run.waitingFrames == 10 + 1000 + 10)
    }

    @Test func removingKeepsThatSoundCameUnlessForgotten() {
        var run = SampleRun(sampleRate: 1000)
        run.append(Self.block(10), at: 0)
        run.removeAll()
        #expect(run.hasRunDry)
        run.removeAll(forgettingTime: true)
        #expect(!run.hasRunDry)
        #expect(run.time == nil)
        // The next block starts the run afresh, at its own time.
        run.append(Self.block(10), at: 7)
        #expect(run.time == 7)
    }

    @Test func hostileTimesNeverTrap() {
        var run = SampleRun(sampleRate: 48_000)
        for time in [Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0] {
            run.append(Self.block(16), at: time)
            for from in [Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude, 0] {
                _ = run.take(frames: 8, from: from)
            }
        }
        #expect(run.waitingFrames <= 48_000 * 6 + 16 * 6)
    }
}
