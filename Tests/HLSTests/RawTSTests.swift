import Foundation
import OriginKit
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia

/// Raw MPEG-TS over HTTP against the origin's `/shapes/raw/` on loopback: a channel's URL
/// is known by its answer (none of these paths ends in `.ts`), a stream that drops is
/// opened again as a new discontinuity, a warm one keeps its latest key frame on, and an
/// answer that is no stream fails at once with its reason.
extension HLSLiveSessionTests {
    /// Whether a session is a warm neighbour, switched by the test.
    final class WarmSwitch: Sendable {
        private let state = Mutex(false)
        var isOn: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    func channelSession(_ url: URL, warm: WarmSwitch = WarmSwitch(),
                        masters: KnownMasters? = nil) -> (ChannelSession, Recorder, Task<Void, Never>) {
        let recorder = Recorder()
        let session = ChannelSession(url: url, fetcher: .shared, bufferedSeconds: { 10 }, isWarm: { warm.isOn },
                                     masters: masters) { event in
            recorder.events.withLock { $0.append(event) }
        }
        session.start()
        let consumer = Task {
            for await delivery in session.segments { recorder.deliveries.withLock { $0.append(delivery) } }
        }
        return (session, recorder, consumer)
    }

    /// The packets of what a delivery has received so far (its copy, so nothing blocks).
    func demuxed(_ delivery: HLSSegmentDelivery) throws -> (video: [Packet], audio: Int) {
        let demuxer = try Demuxer(queue: delivery.bytes.snapshot(), container: .mpegTS)
        var video: [Packet] = []
        var audio = 0
        while let packet = try demuxer.readPacket() {
            if demuxer.parameters[packet.streamIndex].kind == .video { video.append(packet) } else { audio += 1 }
        }
        return (video, audio)
    }

    @Test func aRawStreamIsKnownByItsBytesAndFlowsInRealTime() async throws {
        let origin = try OriginProcess.shared.get()
        let (session, recorder, consumer) = channelSession(shapesURL(origin, "raw/play/a013"))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a delivery") { !recorder.deliveries.withLock { $0 }.isEmpty }
        #expect(recorder.events.withLock { $0 }.contains { if case .rawStream = $0 { true } else { false } })
        let delivery = try #require(recorder.deliveries.withLock { $0.first })
        try await Task.sleep(for: .seconds(1))
        let early = delivery.bytes.appendedCount
        try await Task.sleep(for: .seconds(3))
        let late = delivery.bytes.appendedCount
        #expect(late > early, "the body keeps coming")
        // Paced: three seconds bring about three seconds of a 240p channel (~0.5 Mbit/s), never a burst of many.
        #expect(late - early < 1 << 20, "\(late - early) bytes in 3 s")
        let packets = try demuxed(delivery)
        #expect(packets.video.count > 60 && packets.audio > 20, "\(packets.video.count) pictures, \(packets.audio) sound packets")
        // One stream: the loop's restarts do not show in its clock.
        let times = packets.video.compactMap(\.pts)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0) < 90_000 }, "\(times)")
    }

    @Test func aDroppedRawStreamIsOpenedAgainAsADiscontinuity() async throws {
        let origin = try OriginProcess.shared.get()
        let (session, recorder, consumer) = channelSession(shapesURL(origin, "raw/udp/239.0.0.6:1234"))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a second connection", seconds: 20) { recorder.deliveries.withLock { $0.count } >= 2 }
        let deliveries = recorder.deliveries.withLock { $0 }
        #expect(deliveries.prefix(2).map(\.discontinuitySequence) == [0, 1])
        #expect(deliveries[0].bytes.isFinished)
        let ended = recorder.events.withLock { $0 }.compactMap { if case .streamEnded(_, _, let wait) = $0 { wait } else { nil } }
        #expect(ended.first == 0.5, "a healthy connection that drops is opened again at once: \(ended)")
        #expect(recorder.events.withLock { $0 }.allSatisfy { $0.failure == nil }, "\(recorder.events.withLock { $0.map(\.line) })")
    }

    @Test func aWarmRawStreamKeepsItsLatestKeyFrameOn() async throws {
        let origin = try OriginProcess.shared.get()
        let warm = WarmSwitch()
        warm.isOn = true
        let (session, recorder, consumer) = channelSession(shapesURL(origin, "raw/play/a013"), warm: warm)
        defer { session.cancel(); consumer.cancel() }
        try await Task.sleep(for: .seconds(3))
        #expect(recorder.deliveries.withLock { $0 }.isEmpty, "nothing is handed on while warm")
        warm.isOn = false
        try await recorder.waitFor("the promoted delivery") { !recorder.deliveries.withLock { $0 }.isEmpty }
        let delivery = try #require(recorder.deliveries.withLock { $0.first })
        // Kept: the tables and a GOP of at most 2 s, not the 3 s and more that came.
        #expect(delivery.bytes.appendedCount < 400 << 10, "\(delivery.bytes.appendedCount) bytes")
        let first = try #require(try demuxed(delivery).video.first)
        #expect(first.isKeyframe)
    }

    @Test func answersThatAreNoStreamFailAtOnceSayingWhat() async throws {
        let origin = try OriginProcess.shared.get()
        let expected = ["raw/portal": "a web page (text/html)", "raw/live/manifest": "a DASH manifest (.mpd)",
                        "raw/empty": "an empty answer"]
        for (path, words) in expected {
            let started = Date()
            let (session, recorder, consumer) = channelSession(shapesURL(origin, path))
            defer { session.cancel(); consumer.cancel() }
            try await recorder.waitFor("the failure of \(path)", seconds: 3) { recorder.events.withLock { !$0.isEmpty } }
            let events = recorder.events.withLock { $0 }
            guard case .notAStream(let failure) = try #require(events.first) else {
                Issue.record("\(path): \(events.map(\.line))")
                continue
            }
            #expect(failure.name == "unsupported" && failure.detail.contains(words), "\(path): \(failure)")
            #expect(Date().timeIntervalSince(started) < 2, "\(path) took \(Date().timeIntervalSince(started)) s")
            await consumer.value  // the session ended: its stream finished
            #expect(recorder.deliveries.withLock { $0 }.isEmpty && events.count == 1)
        }
    }
}
