import Foundation
import ZapperCore

/// Plays a raw MPEG-TS stream over HTTP (an IPTV panel's `/live/…`, a `/play/…`
/// server, udpxy): each connection's body is one delivery, its bytes streaming into
/// the demuxer's queue as they come. When the body ends or the connection breaks,
/// the URL is opened again with backoff and the next connection's delivery is a new
/// discontinuity (its clocks need not follow on). A warm neighbour keeps its
/// connection but only its stream's tables and the bytes from its latest key frame
/// (`TSKeyFrameWindow`); its delivery starts with those when it is promoted.
struct RawTSSession: Sendable {
    let url: URL
    let fetcher: HTTPFetcher
    let isWarm: @Sendable () -> Bool
    let report: @Sendable (HLSEvent) -> Void
    let deliver: @Sendable (HLSSegmentDelivery) -> Void
    /// Bytes waiting for the decoder, at most: reading stops (and TCP holds the server) past this.
    var waitingBytes: @Sendable () -> Int = { Self.liveWaitingBytes }

    /// `waitingBytes` at the live edge (paused or behind live, the time-shift budget's bytes).
    static let liveWaitingBytes = 16 << 20
    /// A connection that lasted this long was healthy: the next reconnection starts the backoff again.
    static let healthySeconds = 3.0

    /// Follows the stream from its first connection (`first`) until the task is cancelled.
    func run(_ first: TSBody) async {
        var body: TSBody? = first
        var connection: Int64 = 0
        var failures = 0
        while !Task.isCancelled {
            if body == nil {
                do {
                    guard case .mpegTS(let reopened) = try await fetcher.firstAnswer(url) else {
                        throw HTTPFetcher.Failure(url: url.absoluteString, kind: .invalid, reason: "a playlist where an MPEG-TS stream was")
                    }
                    body = reopened
                    report(.streamResumed(url: url.absoluteString, attempt: failures))
                } catch {
                    if Task.isCancelled { return }
                    failures += 1
                    report(.streamFailed(url: url.absoluteString, failure: HTTPFailureKind.failure(error, url: url.absoluteString), attempt: failures))
                    guard await HLSLiveSession.pause(HLSLiveSession.backoff(failures)) else { return }
                    continue
                }
            }
            let started = HTTPFetcher.now()
            guard let ending = await follow(body!, connection: connection) else { return }
            body = nil
            connection += 1
            failures = HTTPFetcher.now() - started >= Self.healthySeconds ? 1 : failures + 1
            let wait = HLSLiveSession.backoff(failures)
            report(.streamEnded(url: url.absoluteString, reason: ending, reconnectIn: wait))
            guard await HLSLiveSession.pause(wait) else { return }
        }
    }

    /// Reads one connection's body to its end; says how it ended (nil: cancelled).
    private func follow(_ body: TSBody, connection: Int64) async -> String? {
        var rest = body.rest
        var window = TSKeyFrameWindow()
        var queue: ByteQueue?
        func take(_ bytes: [UInt8]) async -> Bool {
            if queue == nil {
                if isWarm() {
                    window.append(bytes)
                    return true
                }
                let started = ByteQueue()
                // Promoted (or never warm): from the latest key frame, when there is one.
                started.append(Data(window.bytes))
                deliver(HLSSegmentDelivery(sequence: connection, discontinuitySequence: connection, duration: 0, programDate: nil,
                                           variant: 0, container: .mpegTS, bytes: started, isStream: true))
                queue = started
            }
            queue!.append(Data(bytes))
            while queue!.waitingCount > waitingBytes() {
                guard await HLSLiveSession.pause(0.02), !queue!.isCancelled else { return false }
            }
            return !queue!.isCancelled
        }
        do {
            guard await take(body.head) else { return nil }
            while let chunk = try await rest.next() {
                guard await take(Array(chunk.readableBytesView)) else { return nil }
            }
            if Task.isCancelled {
                queue?.cancel()
                return nil
            }
            queue?.finish()
            return "the server ended the stream"
        } catch {
            queue?.finish()
            if Task.isCancelled { return nil }
            return "\(HTTPFailureKind.failure(error, url: url.absoluteString))"
        }
    }
}
