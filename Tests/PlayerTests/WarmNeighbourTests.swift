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

    @Test func aPromotedNeighbourShowsItsKeptKeyFrameAtOnceAndPlaysOnFromIt() async throws {
        let (warm, channel, cache) = try Self.warmNeighbour(4)
        defer { warm.stop() }
        func waitFor<T>(_ what: String, seconds: Double = 20, _ value: () -> T?) async throws -> T {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let value = value() { return value }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw RawHTTPConnection.Failure(description: "timed out waiting for \(what)")
        }
        _ = try await waitFor("a head kept (720p's parameters learnt)") { cache.get(4, variant: 1, source: channel.url.absoluteString) }
        warm.promote(serial: 1)
        let promoted = Date()
        let first = try await waitFor("the first picture") { warm.picture(at: nil) }
        let frame = try #require(first.picture as? Frame)
        #expect(frame.width == 1280 && frame.height == 720, "the first picture is \(frame.width)x\(frame.height)")
        #expect(Date().timeIntervalSince(promoted) < 2, "the kept key frame took \(Date().timeIntervalSince(promoted)) s")
        // The motion goes on from it: the pictures after it, a frame apart, then its sound.
        // (Its sound is taken as an audio thread would: a full sound queue holds the decoder.)
        var times = [first.time]
        var heard = false
        for step in 1...45 {
            let next = try await waitFor("picture \(step) after the first") { warm.picture(at: first.time + Double(step) / 30 + 0.001) }
            times.append(next.time)
            if let sound = warm.takeAudio(frames: 1600, from: first.time + Double(step - 1) / 30) {
                heard = heard || sound.samples.contains { $0 != 0 }
            }
        }
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.005 }, "picture steps \(steps)")
        #expect(heard, "no sound in the first 1.5 s")
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
