import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia
@testable import ZapperEngine

/// A video decoder starts on one thread; found too slow, it goes on with FFmpeg's frame
/// threads from the next key frame, no picture lost, and the process's later decoders of
/// pictures that large start with them.
@Suite(.timeLimit(.minutes(5)))
struct DecoderThreadsTests {
    @Test func aDecoderTooSlowForOneThreadGoesOnWithFrameThreadsLosingNoPicture() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: 5, name: "Channel 5",
                                    url: URL(string: "http://127.0.0.1:\(origin.port)/ch/5/master.m3u8")!, line: 1)
        let news = GuardedRenditionTests.NewsBox()
        let threads = DecoderThreads(busyShare: 0)  // any time spent decoding is too much
        #expect(threads.threads(forPixels: 1920 * 1080) == 1)
        // The box's ceiling is judged by the wall time decoding takes, which a machine busy
        // with other tests stretches: lowered, it would skip pictures on purpose (its own tests).
        let ceiling = DecodeCeiling(busyShare: .infinity)
        let playback = ChannelPlayback(channel: channel, serial: 1, sampleRate: 48_000, parametersCache: ParametersCache(),
                                       warmMemory: WarmMemory(), decoderThreads: threads, decodeCeiling: ceiling) { item, _ in
            news.add(item)
        }
        playback.start()
        defer { playback.stop() }
        // Played on a thread of its own, as a player's clock is: on Swift's pool, beside hundreds
        // of tests, its 5 ms sleeps woke seconds late, and the sound it takes (which lets the
        // decoder on) with them.
        let (times, passed) = try await onOwnThread { () throws -> ([Double], Int) in
            var first0 = 0.0
            var clock = 0.0
            func waitFor<T>(_ what: String, _ value: () -> T?) throws -> T {
                let deadline = Date().addingTimeInterval(20)
                while Date() < deadline {
                    if let value = value() { return value }
                    Thread.sleep(forTimeInterval: 0.005)
                }
                let waiting = playback.samples.waitingSeconds, next = playback.picture(at: 1e9)
                throw RawHTTPConnection.Failure(description: "timed out waiting for \(what): \(news.items); sound waiting \(waiting) s "
                    + "from \(clock - first0) s in, segments waiting \(playback.inbox.seconds) s, frame threads from \(threads.threadedFrom.map(String.init) ?? "-") "
                    + "pixels, next picture \(next.map { "\($0.time - first0) s in, \($0.dropped) passed" } ?? "none")")
            }
            let first = try waitFor("the first picture") { playback.picture(at: nil) }
            first0 = first.time
            // Five seconds of pictures, one frame at a time, no faster than real time (a live stream
            // has no more). The sound is taken as an audio clock would (a full sound queue holds the
            // decoder), never past the picture waited for and never to the last of it (sound run dry
            // lets the decoder drop pictures, as a player whose clock ran on would not mind, and
            // this test would). The first window closes after two seconds.
            var times = [first.time]
            var passed = 0
            clock = first.time
            let begun = Date()
            for step in 1...150 {
                let time = first.time + Double(step) / 30
                let due = begun.addingTimeInterval(Double(step) / 30).timeIntervalSinceNow
                if due > 0 { Thread.sleep(forTimeInterval: due + 0.001) }
                let next = try waitFor("picture \(step) after the first") {
                    // Half a frame of slack: where variants switch, pictures may sit a few ms off the old grid.
                    if let picture = playback.picture(at: time + 0.5 / 30) { return picture }
                    if clock < time, playback.samples.waitingSeconds > 0.2 {
                        _ = playback.takeAudio(frames: 480, from: clock)
                        clock += 0.01
                    }
                    return nil
                }
                times.append(next.time)
                passed += next.dropped
            }
            return (times, passed)
        }
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(passed == 0, "\(passed) pictures passed unseen")
        // A picture lost would be a step of two frames.
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.5 / 30 }, "picture steps \(steps.filter { abs($0 - 1.0 / 30) >= 0.5 / 30 })")
        let from = try #require(threads.threadedFrom, "one thread was never judged too slow")
        #expect(threads.threads(forPixels: from) == threads.frameThreads && threads.threads(forPixels: from - 1) == 1)
    }

    @Test func frameThreadsAreOnePerProcessorAndOneMore() {
        #expect(DecoderThreads(oneThreadFirst: false, processors: 1).threads(forPixels: 1920 * 1080) == 2)
        #expect(DecoderThreads(oneThreadFirst: false, processors: 4).threads(forPixels: 640 * 360) == 5)
        #expect(DecoderThreads(oneThreadFirst: true, processors: 8).threads(forPixels: 640 * 360) == 1)
    }
}
