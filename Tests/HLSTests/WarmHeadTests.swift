import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
@testable import ZapperHLS

/// A warm neighbour's session against the real origin over loopback: it keeps only the head
/// (first key frame) of each new segment of a variant the measured bandwidth carries, and at
/// its promotion the rest of that segment follows on the same bytes.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct WarmHeadTests {
    /// A session that is warm until `promote`, with a memory of its own: 20 Mbit/s measured.
    final class Warm: Sendable {
        final class Flag: Sendable { let on = Atomic(true) }
        let warm = Flag()
        let promotion = PromotionSignal()
        let memory = WarmMemory()
        let recorder = HLSLiveSessionTests.Recorder()
        let session: HLSLiveSession
        let consumer: Task<Void, Never>

        init(_ url: URL) {
            memory.assume(20_000_000)
            let (warm, recorder) = (warm, recorder)
            // As a warm playback's: the lowest variant at most while warm (when heads cannot be kept).
            session = HLSLiveSession(url: url, fetcher: .shared, bufferedSeconds: { 10 },
                                     variantCap: { warm.on.load(ordering: .relaxed) ? 0 : nil }, isWarm: { warm.on.load(ordering: .relaxed) },
                                     promotion: promotion, warmMemory: memory) { event in recorder.events.withLock { $0.append(event) } }
            session.start()
            let segments = session.segments
            consumer = Task {
                for await delivery in segments { recorder.deliveries.withLock { $0.append(delivery) } }
            }
        }

        func promote() {
            warm.on.store(false, ordering: .relaxed)
            promotion.signal()
        }

        func stop() {
            session.cancel()
            consumer.cancel()
        }
    }

    static func bytes(of queue: ByteQueue) -> [UInt8] {
        let copy = queue.snapshot()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while case .bytes(let count) = buffer.withUnsafeMutableBufferPointer({ copy.read(into: $0.baseAddress!, capacity: $0.count) }) {
            received += buffer.prefix(count)
        }
        return received
    }

    @Test func keepsOnlyKeyFrameHeadsOfTheVariantTheLineCarriesAndGoesOnFromOneAtItsPromotion() async throws {
        let origin = try OriginProcess.shared.get()
        let warm = Warm(URL(string: "http://127.0.0.1:\(origin.port)/ch/3/master.m3u8")!)
        defer { warm.stop() }
        let recorder = warm.recorder
        try await recorder.waitFor("two heads") { recorder.deliveries.withLock { $0.count } >= 2 }
        let heads = recorder.deliveries.withLock { $0 }
        // 720p: 1080p's heads (a third of a second of 5.4 Mbit/s) do not fit 500 kbit/s with 2 s segments.
        #expect(heads.allSatisfy { $0.keptHead && $0.variant == 1 }, "\(recorder.events.withLock { $0.map(\.line) })")
        // A head replaced by a newer one ends where it is (a decoder that took it moves on).
        #expect(heads.dropLast().allSatisfy { $0.bytes.isFinished })
        #expect(recorder.count { if case .warmHeads(1?, _) = $0 { true } else { false } } == 1)
        let head = try #require(heads.last)
        let kept = Self.bytes(of: head.bytes)
        let whole = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/3/720p/\(head.sequence).ts").body
        #expect(kept.count < whole.count / 3, "a head of \(kept.count) bytes, its segment \(whole.count)")
        #expect(Array(whole.prefix(kept.count)) == kept, "the head is the segment's first bytes")
        var scan = TSKeyFrameWindow()
        scan.append(kept)
        #expect(scan.firstKeyFrameEnd != nil, "no key frame whole in the head")
        #expect(warm.memory.heads.count == 1 && (warm.memory.heads.values.first ?? 0) > 0)
        // Remembered by picture height and bandwidth: a still 1080p picture at 216 kbit/s is not a 5 Mbit/s programme.
        #expect(HLSLiveSession.kind(height: 1080, bandwidth: 216_576) != HLSLiveSession.kind(height: 1080, bandwidth: 5_430_192))
        #expect(HLSLiveSession.kind(height: 720, bandwidth: 2_844_064) == HLSLiveSession.kind(height: 720, bandwidth: 2_950_000))
        #expect(HLSLiveSession.kind(height: Int.max, bandwidth: Int.max) < 0 && HLSLiveSession.kind(height: nil, bandwidth: 7) == 7)
        let before = recorder.deliveries.withLock { $0.count }

        // Promoted: the newest head's segment is fetched on, on its own bytes, and the session plays on.
        let newest = recorder.deliveries.withLock { $0.last! }
        warm.promote()
        // One segment behind the live edge: the segment after the head's was listed already at
        // the promotion, not a reload away (its sound would begin before it came).
        let listed = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/3/720p/index.m3u8").text
        #expect(listed.contains("\n\(newest.sequence + 1).ts"), "head \(newest.sequence), listed: \(listed)")
        try await recorder.waitFor("the head's segment whole") { newest.bytes.isFinished }
        let continued = Self.bytes(of: newest.bytes)
        let file = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/3/720p/\(newest.sequence).ts").body
        #expect(continued == file, "segment \(newest.sequence): \(continued.count) bytes, its file \(file.count)")
        try await recorder.waitFor("the next segment") { recorder.deliveries.withLock { $0.count } > before }
        let next = try #require(recorder.deliveries.withLock { $0.first { $0.sequence > newest.sequence } })
        #expect(next.sequence == newest.sequence + 1 && !next.keptHead)
        #expect(recorder.count { if case .segmentFailed = $0 { true } else { false } } == 0)
    }

    @Test(arguments: [("/ch/2/fmp4/master.m3u8", "fragmented MP4"), ("/ch/2/ranges/index.m3u8", "byte ranges")])
    func streamsWhoseHeadsCannotBeCutAreKeptWholeAtTheLowestVariant(_ path: String, _ reason: String) async throws {
        let origin = try OriginProcess.shared.get()
        let warm = Warm(URL(string: "http://127.0.0.1:\(origin.port)\(path)")!)
        defer { warm.stop() }
        let recorder = warm.recorder
        try await recorder.waitFor("a whole segment") { recorder.deliveries.withLock { $0.contains { $0.bytes.isFinished } } }
        #expect(recorder.count { $0 == .warmHeads(index: nil, reason: "its segments are \(reason)") } == 1)
        #expect(recorder.deliveries.withLock { $0.allSatisfy { !$0.keptHead && $0.variant == 0 } })
    }

    @Test func aServerThatIgnoresRangeIsKeptWholeAtTheLowestVariant() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "3:no-range"])
        let warm = Warm(URL(string: "http://127.0.0.1:\(origin.port)/ch/3/master.m3u8")!)
        defer { warm.stop() }
        let recorder = warm.recorder
        try await recorder.waitFor("a whole segment") { recorder.deliveries.withLock { $0.contains { $0.bytes.isFinished } } }
        let said = recorder.events.withLock { $0.compactMap { if case .warmHeads(nil, let reason) = $0 { reason } else { nil } } }
        #expect(said.count == 1 && said[0].hasSuffix("answered a Range request with the whole segment"), "\(said)")
        #expect(recorder.deliveries.withLock { $0.allSatisfy { !$0.keptHead && $0.variant == 0 } })
    }
}
