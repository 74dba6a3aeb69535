import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
@testable import ZapperEngine

/// The playing channel's decoder judged slower than real time: the box's ceiling comes down
/// to that picture size and the channel goes on with smaller pictures (a box that cannot
/// decode a stream in time would otherwise fall behind the clock and lose its sound for good).
@Suite(.timeLimit(.minutes(5)))
struct DecodeCeilingTests {
    @Test func aStreamDecodedTooSlowlyGoesOnWithSmallerPictures() async throws {
        let ceiling = DecodeCeiling(busyShare: 0)  // any time spent decoding is too much
        // Judged again and again, down to the lowest variant.
        try await playUntilSmaller(ceiling: ceiling, threads: DecoderThreads(oneThreadFirst: false)) { _, height, _ in height == 240 }
    }

    /// One thread so slow that frame threads could not keep up either: the ceiling comes down
    /// from the one thread's own window, without waiting for the threads' (never, here).
    @Test func oneThreadFarTooSlowLowersTheCeilingAtOnce() async throws {
        let ceiling = DecodeCeiling(busyShare: 0, windows: 1_000)
        // Judged once, at whichever variant played then: smaller ones from then on.
        try await playUntilSmaller(ceiling: ceiling, threads: DecoderThreads(busyShare: 0)) { width, height, ceiling in
            width * height < ceiling || height == 240
        }
    }

    /// A judgement made in a busy moment (the box's start) does not hold for months: the
    /// ceiling and the frame threads lapse after 10 minutes, and a judgement made again holds
    /// for 20.
    @Test func theJudgementsLapse() {
        let clock = Mutex(1_000.0)
        let ceiling = DecodeCeiling(now: { clock.withLock { $0 } })
        let threads = DecoderThreads(now: { clock.withLock { $0 } })
        #expect(ceiling.judgement.tooSlow(width: 1280, height: 720) == "10 minutes")
        #expect(ceiling.judgement.tooSlow(width: 1280, height: 720) == nil, "no news")
        #expect(threads.judgement.tooSlow(width: 1280, height: 720) == "10 minutes")
        #expect(ceiling.pixels == 1280 * 720 && threads.threads(forPixels: 1920 * 1080) == threads.frameThreads)
        clock.withLock { $0 += 599 }
        #expect(ceiling.pixels == 1280 * 720 && threads.threads(forPixels: 1280 * 720) == threads.frameThreads)
        clock.withLock { $0 += 1 }
        #expect(ceiling.pixels == nil && threads.threads(forPixels: 1920 * 1080) == 1)
        #expect(ceiling.judgement.tooSlow(width: 1920, height: 1080) == "20 minutes")
        #expect(threads.judgement.tooSlow(width: 1920, height: 1080) == "20 minutes")
    }

    /// Plays channel 1 until a second of pictures after the judgement all are `settled` (given
    /// their size and the ceiling then), for a minute at most.
    private func playUntilSmaller(ceiling: DecodeCeiling, threads: DecoderThreads,
                                  settled: (_ width: Int, _ height: Int, _ ceiling: Int) -> Bool) async throws {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: 1, name: "Channel 1",  // 240p, 720p and 1080p
                                    url: URL(string: "http://127.0.0.1:\(origin.port)/ch/1/master.m3u8")!, line: 1)
        let playback = ChannelPlayback(channel: channel, serial: 1, sampleRate: 48_000, parametersCache: ParametersCache(),
                                       warmMemory: WarmMemory(), decoderThreads: threads, decodeCeiling: ceiling) { _, _ in }
        playback.start()
        defer { playback.stop() }
        // Played as a clock would, in real time: the newest picture due, the sound up to it.
        var first: Double?
        var begun = Date()
        var sizes: [(width: Int, height: Int, ceiling: Int?)] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let clock = first.map { $0 + Date().timeIntervalSince(begun) }
            if let picture = playback.picture(at: clock) {
                if first == nil { (first, begun) = (picture.time, Date()) }
                sizes.append((picture.picture.width, picture.picture.height, ceiling.pixels))
            }
            if let clock { _ = playback.takeAudio(frames: 480, from: clock) }
            let after = sizes.filter { $0.ceiling != nil }
            if after.count >= 30, after.suffix(30).allSatisfy({ settled($0.width, $0.height, $0.ceiling ?? 0) }) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let pixels = try #require(ceiling.pixels, "never judged too slow: \(sizes.count) pictures")
        #expect(sizes.contains { $0.width * $0.height == pixels }, "the ceiling is a size that was decoded")
        let after = sizes.filter { $0.ceiling != nil }
        #expect(after.count >= 30 && after.suffix(30).allSatisfy { settled($0.width, $0.height, $0.ceiling ?? 0) },
                "sizes after the judgement: \(Set(after.map { "\($0.width)x\($0.height)" }))")
    }
}
