import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// What a segment may cost: a body that never ends is cut at its cap, and
/// the session fetches no further ahead than the consumer has room for.
extension HLSLiveSessionTests {
    @Test func aSegmentThatNeverEndsIsCutAtItsCap() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/hostile/endless/index.m3u8")!
        let (session, recorder, consumer) = play(url)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("an endless segment to fail", seconds: 20) {
            recorder.count { if case .segmentFailed = $0 { true } else { false } } >= 1
        }
        let cap = SegmentLimits.byteCap(duration: 2, bandwidth: nil)
        let failures = recorder.events.withLock { $0 }.compactMap { event -> PlaybackFailure? in
            if case .segmentFailed(_, let failure) = event { failure } else { nil }
        }
        #expect(failures.first?.detail.contains("more than \(cap >> 20) MB") == true, "\(failures)")
        #expect(failures.first?.kind == .tooLarge)
        // What was handed on for that segment stops at the cap (a chunk past it at most).
        let first = try #require(recorder.deliveries.withLock { $0.first })
        #expect(first.bytes.appendedCount <= cap + (1 << 20), "\(first.bytes.appendedCount) bytes")
    }

    @Test func theSessionWaitsForRoomBeforeFetchingMore() async throws {
        let origin = try OriginProcess.shared.get()
        let room = Mutex(false)
        let (session, recorder, consumer) = play(channelURL(origin), room: { room.withLock { $0 } })
        defer { session.cancel(); consumer.cancel() }
        // However long it waits, nothing is fetched while the consumer has no room…
        try await Task.sleep(for: .seconds(5))
        #expect(recorder.deliveries.withLock { $0.count } == 0)
        // …and once it has, segments come.
        room.withLock { $0 = true }
        try await recorder.waitFor("a segment once there is room") { recorder.deliveries.withLock { $0.count } >= 1 }
    }

    @Test func segmentBudgetsFollowDurationAndBandwidth() {
        #expect(SegmentLimits.byteCap(duration: 2, bandwidth: 1_000_000) == SegmentLimits.floorBytes)
        #expect(SegmentLimits.byteCap(duration: 6, bandwidth: 8_000_000) == 18_000_000)
        #expect(SegmentLimits.byteCap(duration: 86_400, bandwidth: 1_000_000_000_000) == SegmentLimits.ceilingBytes)
        #expect(SegmentLimits.deadline(duration: 2) == 10 && SegmentLimits.deadline(duration: 6) == 12)
        #expect(SegmentLimits.hasRoom(segments: 3, seconds: 6, bytes: 1 << 20))
        #expect(!SegmentLimits.hasRoom(segments: 4, seconds: 6, bytes: 1 << 20))
        #expect(!SegmentLimits.hasRoom(segments: 1, seconds: 30, bytes: 1 << 20))
        #expect(!SegmentLimits.hasRoom(segments: 1, seconds: 2, bytes: 96 << 20))
    }
}

extension HLSLiveSessionTests {
    /// A playlist paced to 50 bytes a second never trips the per-read timeout; its whole-body deadline does.
    @Test func aTricklingBodyFailsAtItsDeadline() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "3:bandwidth=50"])
        defer { origin.stop() }
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/3/240p/index.m3u8")!
        let started = Date()
        do {
            _ = try await HTTPFetcher.shared.text(url, seconds: 2)
            Issue.record("a trickling playlist was read whole")
        } catch {
            #expect("\(error)".contains("too slow in coming"), "\(error)")
            #expect(PlaybackFailure(error).kind == .timeout)
        }
        let took = Date().timeIntervalSince(started)
        #expect(took >= 2 && took < 5, "gave up after \(took) s")
    }
}
