import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia

/// Our HLS client against the real origin over loopback. Tests that switch
/// faults run their own origin, so nothing else sees the faults.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct HLSLiveSessionTests {
    /// Events and deliveries of a running session.
    final class Recorder: Sendable {
        let events = Mutex<[HLSEvent]>([])
        let deliveries = Mutex<[HLSSegmentDelivery]>([])
        /// When the first segment arrived: the session chose where to start before then.
        let firstDeliveryAt = Mutex<Date?>(nil)

        func waitFor(_ what: String, seconds: Double = 30, _ condition: () -> Bool) async throws {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                guard Date() < deadline else {
                    throw RawHTTPConnection.Failure(description: "timed out waiting for \(what); events: \(events.withLock { $0.map(\.line) })")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        func count(_ match: (HLSEvent) -> Bool) -> Int { events.withLock { $0.filter(match).count } }

        /// Whether the segment reached the consumer (it is recorded as fetched a moment before).
        func delivered(_ sequence: Int64) -> Bool { deliveries.withLock { $0.contains { $0.sequence == sequence } } }
    }

    /// `room`: the consumer's room for segments (`waitsForRoom`), set before the session starts.
    func play(_ url: URL, buffered: Double = 10, room: (@Sendable () -> Bool)? = nil,
              fetcher: HTTPFetcher = .shared) -> (HLSLiveSession, Recorder, Task<Void, Never>) {
        let recorder = Recorder()
        let session = HLSLiveSession(url: url, fetcher: fetcher, bufferedSeconds: { buffered }) { event in
            recorder.events.withLock { $0.append(event) }
        }
        if let room { session.waitsForRoom(room) }
        session.start()
        let consumer = Task {
            for await delivery in session.segments {
                recorder.firstDeliveryAt.withLock { $0 = $0 ?? Date() }
                recorder.deliveries.withLock { $0.append(delivery) }
            }
        }
        return (session, recorder, consumer)
    }

    func channelURL(_ origin: OriginProcess, _ channel: Int = 1) -> URL {
        URL(string: "http://127.0.0.1:\(origin.port)/ch/\(channel)/master.m3u8")!
    }

    @Test func startsLowBehindTheEdgeThenStepsUpAndDecodes() async throws {
        let origin = try OriginProcess.shared.get()
        let edge = Int64(Date().timeIntervalSince1970 / 2) - 1
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("five segments") { recorder.deliveries.withLock { $0.count } >= 5 }
        let deliveries = recorder.deliveries.withLock { $0 }
        let events = recorder.events.withLock { $0 }
        let sequences = deliveries.map(\.sequence)
        // In order, none twice, and any gap accounted for by an event (never lost silently).
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        let reported = Set(events.flatMap { event -> [Int64] in
            switch event {
            case .segmentFailed(let sequence, _): [sequence]
            case .segmentsExpired(let range): Array(range)
            default: []
            }
        })
        for missing in sequences[0]...sequences.last! where !sequences.contains(missing) {
            #expect(reported.contains(missing), "segment \(missing) vanished: \(events.map(\.line))")
        }
        // Hold-back: three target durations behind the edge the moment it read the playlist,
        // which was after the test began and before the first segment arrived (seconds apart
        // on a loaded machine; the origin adds a 2 s segment every 2 s of wall clock).
        // Where it started is the first segment it took up: delivered, or skipped with an event.
        let started = ([sequences[0]] + reported).min()!
        let latestEdge = Int64(recorder.firstDeliveryAt.withLock { $0! }.timeIntervalSince1970 / 2) - 1
        #expect(started >= edge - 3 && started <= latestEdge - 1,
                "started at \(started), edge between \(edge) and \(latestEdge): \(events.map(\.line))")
        // The lowest variant first (240p is variant 0). Whether it steps up within five segments
        // depends on how busy the machine is; the stepping rules are VariantChooserTests' business.
        #expect(deliveries[0].variant == 0)
        let choices = events.compactMap { event -> Int? in
            if case .variantChosen(let index, _, _) = event { return index }
            return nil
        }
        #expect(choices.first == 0 && choices.allSatisfy { (0...2).contains($0) }, "variant choices \(choices)")

        // The delivered bytes are the variant's picture: demux the last one.
        let last = deliveries.last!
        try await recorder.waitFor("the last body") {
            recorder.count { event in
                switch event {
                case .segmentFetched(last.sequence, _, _, _), .segmentFailed(last.sequence, _): true
                default: false
                }
            } == 1
        }
        let demuxer = try Demuxer(queue: last.bytes)
        let video = try #require(demuxer.firstStream(.video))
        let heights = [0: 240, 1: 720, 2: 1080]
        #expect(demuxer.parameters[video].height == heights[last.variant])
    }

    @Test func missingSegmentsAreSkippedAndPlaybackGoesOn() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "1:segment-404"])
        defer { origin.stop() }
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("failed segments") { recorder.count { if case .segmentFailed = $0 { true } else { false } } >= 3 }
        #expect(recorder.deliveries.withLock { $0.isEmpty })
        _ = try await RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/1")
        try await recorder.waitFor("segments after the fault cleared") { recorder.deliveries.withLock { $0.count } >= 2 }
    }

    @Test func anOutageIsRetriedUntilTheChannelIsBack() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "1:outage"])
        defer { origin.stop() }
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("retries") { recorder.count { if case .playlistFailed = $0 { true } else { false } } >= 2 }
        _ = try await RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/1")
        try await recorder.waitFor("recovery") { recorder.count { if case .playlistRecovered = $0 { true } else { false } } >= 1 }
        try await recorder.waitFor("segments after the outage") { recorder.deliveries.withLock { $0.count } >= 2 }
        // Backoff: not a tight loop while the channel was out.
        #expect(recorder.count { if case .playlistFailed = $0 { true } else { false } } < 10)
    }

    /// Leaving a channel (or an audio rendition) cancels its session while a playlist is being
    /// fetched: that is its end, not a failure to report (a viewer would see "audio failed").
    @Test func aSessionCancelledWhileItsPlaylistIsFetchedReportsNoFailure() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "1:delay=5000"])
        defer { origin.stop() }
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { consumer.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        session.cancel()
        try await Task.sleep(for: .milliseconds(1000))
        #expect(recorder.count { if case .playlistFailed = $0 { true } else { false } } == 0,
                "\(recorder.events.withLock { $0.map(\.line) })")
    }

    @Test func aStalledPlaylistIsNoticedAndFollowedAgainWhenItMoves() async throws {
        let origin = try await OriginProcess.start()
        defer { origin.stop() }
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("first segments") { recorder.deliveries.withLock { $0.count } >= 3 }
        _ = try await RawHTTPConnection.fetch(port: origin.port, "PUT", "/control/faults/1", body: "stall")
        try await recorder.waitFor("the stall", seconds: 20) { recorder.count { if case .stalled = $0 { true } else { false } } == 1 }
        let during = recorder.deliveries.withLock { $0.count }
        _ = try await RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/1")
        try await recorder.waitFor("segments after the stall") { recorder.deliveries.withLock { $0.count } > during }
        // It came back near the live edge: the missed segments expired or were fetched, never out of order.
        let sequences = recorder.deliveries.withLock { $0.map(\.sequence) }
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    }

    @Test func aResetMidBodyDeliversWhatCameAndSaysSo() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "1:reset=0.3"])
        defer { origin.stop() }
        let (session, recorder, consumer) = play(channelURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("broken segments") { recorder.count { if case .segmentFailed = $0 { true } else { false } } >= 2 }
        let first = try #require(recorder.deliveries.withLock { $0.first })
        #expect(first.bytes.appendedCount > 0)  // the part that arrived is handed on
    }

    @Test func onlyHTTPURLsAreOpened() async throws {
        let (session, recorder, consumer) = play(URL(string: "file:///etc/passwd")!)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a refusal") { recorder.count { if case .playlistFailed = $0 { true } else { false } } >= 1 }
        let line = recorder.events.withLock { $0.first?.line } ?? ""
        #expect(line.contains("only http and https"))
    }
}

extension HLSLiveSessionTests {
    /// The origin's byte-range form: every segment an EXT-X-BYTERANGE of one file,
    /// served whole (the origin ignores Range). Each delivery holds exactly its
    /// segment's bytes, the same as the 240p rendition's own segment file.
    @Test func byteRangeSegmentsAreCutFromAServerThatIgnoresRange() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/2/ranges/index.m3u8")!
        let (session, recorder, consumer) = play(url)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("three whole segments") {
            recorder.deliveries.withLock { $0.filter(\.bytes.isFinished).count } >= 3
        }
        for delivery in recorder.deliveries.withLock({ $0.filter(\.bytes.isFinished).prefix(3) }) {
            let own = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/2/240p/\(delivery.sequence).ts").body
            let copy = delivery.bytes.snapshot()
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while case .bytes(let count) = buffer.withUnsafeMutableBufferPointer({ copy.read(into: $0.baseAddress!, capacity: $0.count) }) {
                received += buffer.prefix(count)
            }
            #expect(received.count == own.count && received == own, "segment \(delivery.sequence): \(received.count) bytes, its file \(own.count)")
        }
        #expect(recorder.count { if case .segmentFailed = $0 { true } else { false } } == 0)
    }
}
