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

    /// A picture the test's clock took: its size, the ceiling then, and when (seconds into the test).
    private struct Seen: Sendable {
        var width: Int
        var height: Int
        var ceiling: Int?
        var at: Double
    }

    /// Plays channel 1 until a second of pictures after the judgement all are `settled` (given
    /// their size and the ceiling then), for a minute at most.
    private func playUntilSmaller(ceiling: DecodeCeiling, threads: DecoderThreads,
                                  settled: @escaping @Sendable (_ width: Int, _ height: Int, _ ceiling: Int) -> Bool) async throws {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: 1, name: "Channel 1",  // 240p, 720p and 1080p
                                    url: URL(string: "http://127.0.0.1:\(origin.port)/ch/1/master.m3u8")!, line: 1)
        let playback = ChannelPlayback(channel: channel, serial: 1, sampleRate: 48_000, parametersCache: ParametersCache(),
                                       warmMemory: WarmMemory(), decoderThreads: threads, decodeCeiling: ceiling) { _, _ in }
        playback.start()
        defer { playback.stop() }
        // Played as a clock would, in real time: the newest picture due, the sound up to it; on a
        // thread of its own, as a player's clock is.
        let sizes = try await onOwnThread { () -> [Seen] in
            var first: Double?
            var begun = Date()
            var sizes: [Seen] = []
            let started = Date()
            let deadline = started.addingTimeInterval(60)
            while Date() < deadline {
                let clock = first.map { $0 + Date().timeIntervalSince(begun) }
                if let picture = playback.picture(at: clock) {
                    if first == nil { (first, begun) = (picture.time, Date()) }
                    sizes.append(Seen(width: picture.picture.width, height: picture.picture.height, ceiling: ceiling.pixels,
                                      at: Date().timeIntervalSince(started)))
                }
                if let clock { _ = playback.takeAudio(frames: 480, from: clock) }
                let after = sizes.filter { $0.ceiling != nil }
                if after.count >= 30, after.suffix(30).allSatisfy({ settled($0.width, $0.height, $0.ceiling ?? 0) }) { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return sizes
        }
        let pixels = try #require(ceiling.pixels, "never judged too slow: \(sizes.count) pictures")
        #expect(sizes.contains { $0.width * $0.height == pixels }, "the ceiling is a size that was decoded")
        let after = sizes.filter { $0.ceiling != nil }
        #expect(after.count >= 30 && after.suffix(30).allSatisfy { settled($0.width, $0.height, $0.ceiling ?? 0) },
                "sizes after the judgement: \(Set(after.map { "\($0.width)x\($0.height)" })); pictures as they came: \(Self.runs(sizes))")
    }

    /// "426x240 ×45 (no ceiling) 0.0-2.1 s, 1280x720 ×30 (ceiling 2073600) 2.2-3.4 s, …": the
    /// pictures taken, runs of one size and ceiling, with the seconds of the first and last.
    private static func runs(_ sizes: [Seen]) -> String {
        var runs: [(size: String, ceiling: Int?, count: Int, from: Double, to: Double)] = []
        for picture in sizes {
            let size = "\(picture.width)x\(picture.height)"
            if let last = runs.last, last.size == size, last.ceiling == picture.ceiling {
                runs[runs.count - 1].count += 1
                runs[runs.count - 1].to = picture.at
            } else {
                runs.append((size, picture.ceiling, 1, picture.at, picture.at))
            }
        }
        return runs.map { run in
            "\(run.size) ×\(run.count) (" + (run.ceiling.map { "ceiling \($0)" } ?? "no ceiling")
                + String(format: ") %.1f-%.1f s", run.from, run.to)
        }.joined(separator: ", ")
    }
}
