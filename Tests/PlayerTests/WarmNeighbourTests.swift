import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia
@testable import ZapperEngine

/// A warm neighbour, on the real origin: it learns its codec parameters before it is ever
/// promoted, keeps nothing but the head of a segment (the one before its newest; nothing decoded,
/// nothing queued), and at its promotion shows that head's key frame at once and plays on.
@Suite(.timeLimit(.minutes(5)))
struct WarmNeighbourTests {
    /// Channel `number` of the shared origin, started as a warm neighbour that has measured 20 Mbit/s.
    static func warmNeighbour(_ number: Int) throws -> (ChannelPlayback, LineupChannel, ParametersCache) {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: number, name: "Channel \(number)",
                                    url: URL(string: "http://127.0.0.1:\(origin.port)/ch/\(number)/master.m3u8")!, line: 1)
        let cache = ParametersCache()
        let memory = WarmMemory()
        memory.assume(20_000_000)
        let warm = ChannelPlayback(channel: channel, serial: nil, sampleRate: 48_000, parametersCache: cache, warmMemory: memory) { _, _ in }
        warm.start()
        return (warm, channel, cache)
    }

    @Test func aWarmNeighbourKnowsItsCodecParametersBeforePromotion() async throws {
        let (warm, channel, cache) = try Self.warmNeighbour(3)
        defer { warm.stop() }
        let deadline = Date().addingTimeInterval(30)
        // Whichever variant it warmed on (the lowest, at the start).
        func learnt() -> [CodecParameters]? { (0..<3).lazy.compactMap { cache.get(3, variant: $0, source: channel.url.absoluteString) }.first }
        while learnt() == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let parameters = try #require(learnt(), "no codec parameters learnt while warm")
        #expect(parameters.contains { $0.kind == .video && $0.width > 0 })
        // Learnt from a head (the key frame, and the sound that came with it, perhaps none whole).
        #expect(parameters.contains { $0.kind == .audio })
        #expect(warm.picture(at: nil) == nil, "a warm neighbour queued a picture")
    }

    /// What the test's clock saw of a promoted neighbour: its first picture's size, how long it took, the pictures' times, and whether any sound was heard.
    private struct Promotion: Sendable {
        var width = 0
        var height = 0
        var took = 0.0
        var times: [Double] = []
        var heard = false
    }

    @Test func aPromotedNeighbourShowsItsKeptKeyFrameAtOnceAndPlaysOnFromIt() async throws {
        let (warm, channel, cache) = try Self.warmNeighbour(4)
        defer { warm.stop() }
        // Watched from a thread of its own, as a player's clock watches: on Swift's pool, beside
        // hundreds of tests, its 10 ms sleeps woke up to seconds late, and the time it measures with them.
        let seen = try await onOwnThread { () throws -> Promotion in
            func waitFor<T>(_ what: String, seconds: Double = 20, _ value: () -> T?) throws -> T {
                let deadline = Date().addingTimeInterval(seconds)
                while Date() < deadline {
                    if let value = value() { return value }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                throw RawHTTPConnection.Failure(description: "timed out waiting for \(what)")
            }
            _ = try waitFor("a head kept (720p's parameters learnt)") { cache.get(4, variant: 1, source: channel.url.absoluteString) }
            warm.promote(serial: 1)
            let promoted = Date()
            let first = try waitFor("the first picture") { warm.picture(at: nil) }
            var seen = Promotion(took: Date().timeIntervalSince(promoted), times: [first.time])
            let frame = first.picture as? Frame
            (seen.width, seen.height) = (frame?.width ?? 0, frame?.height ?? 0)
            // The motion goes on from it: the pictures after it, a frame apart, then its sound.
            // (Its sound is taken as an audio thread would: a full sound queue holds the decoder.)
            for step in 1...45 {
                let next = try waitFor("picture \(step) after the first") { warm.picture(at: first.time + Double(step) / 30 + 0.001) }
                seen.times.append(next.time)
                if let sound = warm.takeAudio(frames: 1600, from: first.time + Double(step - 1) / 30) {
                    seen.heard = seen.heard || sound.samples.contains { $0 != 0 }
                }
            }
            return seen
        }
        #expect(seen.width == 1280 && seen.height == 720, "the first picture is \(seen.width)x\(seen.height) (0x0: not a decoded frame)")
        #expect(seen.took < 2, "the kept key frame took \(seen.took) s")
        let steps = zip(seen.times, seen.times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.005 }, "picture steps \(steps)")
        #expect(seen.heard, "no sound in the first 1.5 s")
    }
}

/// Where a separate rendition's discontinuities go on the timeline, for a channel
/// that plays for months: recent ones are kept, older ones count as passed.
@Suite struct TimelinePlaceTests {
    @Test func recentDiscontinuitiesAreKeptAndOldOnesPassed() {
        let tracks = ChannelTracks(audioLanguage: nil)
        #expect(tracks.place(discontinuity: 5) == .notYet)
        for sequence in Int64(0)..<1_000 {
            tracks.timeline(discontinuity: sequence, offset: Double(sequence) * 20, segment: sequence * 10)
        }
        #expect(tracks.place(discontinuity: 999) == .offset(19_980))
        #expect(tracks.place(discontinuity: 1_000 - Int64(ChannelTracks.keptDiscontinuities)) == .offset(Double(1_000 - ChannelTracks.keptDiscontinuities) * 20))
        #expect(tracks.place(discontinuity: 3) == .passed, "an old discontinuity is not kept")
        #expect(tracks.offset(discontinuity: 3) == nil)
        #expect(tracks.place(discontinuity: 1_000) == .notYet)
        #expect(tracks.decodingSequence == 9_990)
    }
}
