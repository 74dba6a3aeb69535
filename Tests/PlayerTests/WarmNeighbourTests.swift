import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperMedia
@testable import ZapperEngine

/// A warm neighbour, on the real origin: it learns its codec parameters
/// before it is ever promoted, and decodes nothing while warm.
@Suite(.timeLimit(.minutes(5)))
struct WarmNeighbourTests {
    @Test func aWarmNeighbourKnowsItsCodecParametersBeforePromotion() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: 3, name: "Ocean Blue", url: URL(string: "http://127.0.0.1:\(origin.port)/ch/3/master.m3u8")!, line: 1)
        let cache = ParametersCache()
        let warm = ChannelPlayback(channel: channel, serial: nil, sampleRate: 48_000, parametersCache: cache) { _, _ in }
        warm.start()
        defer { warm.stop() }
        let deadline = Date().addingTimeInterval(30)
        // Whichever variant it warmed on (the lowest, at the start).
        func learnt() -> [CodecParameters]? { (0..<3).lazy.compactMap { cache.get(3, variant: $0, source: channel.url.absoluteString) }.first }
        while learnt() == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let parameters = try #require(learnt(), "no codec parameters learnt while warm")
        #expect(parameters.contains { $0.kind == .video && $0.width > 0 })
        #expect(parameters.contains { $0.kind == .audio && $0.sampleRate > 0 })
        #expect(warm.picture(at: nil) == nil, "a warm neighbour decoded a picture")
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
