import Foundation
import Synchronization
import ZapperCore
import ZapperHLS
import ZapperMedia

/// One channel checked as zapper would play it (`zapper check`): its stream opened
/// with its own headers by the same session (HLS or raw MPEG-TS), and its first
/// segment demuxed and decoded on a thread of its own until a picture comes. The
/// first failure of its playlist or stream, or `seconds` without a picture, fails it.
public enum ChannelProbe {
    /// The channel's sources in turn until one gives a picture (a merged channel's backups
    /// are what the box would fail over to); failed when none does.
    public static func check(_ channel: LineupChannel, seconds: Double) async -> ChannelCheck {
        let sources = channel.sources
        var first: ChannelCheck?
        for (index, source) in sources.enumerated() {
            var check = await check(channel, source: source, seconds: seconds)
            check.sources = sources.count
            if check.ok {
                check.source = index + 1
                return check
            }
            first = first ?? check
        }
        if var failed = first, sources.count > 1 {
            failed.reason = "all \(sources.count) sources failed; the first: \(failed.reason ?? "")"
            return failed
        }
        return first!
    }

    static func check(_ channel: LineupChannel, source: LineupSource, seconds: Double) async -> ChannelCheck {
        let started = HTTPFetcher.now()
        let seen = Seen()
        let outcome = Outcome()
        let session = ChannelSession(url: source.url, fetcher: HTTPFetcher.shared.with(source.headers), bufferedSeconds: { 0 }) { event in
            switch event {
            case .masterLoaded(let master): seen.update { $0.master = master }
            case .rawStream: seen.update { $0.raw = true }
            case .notAStream(let failure), .playlistFailed(_, let failure, _), .streamFailed(_, let failure, _):
                outcome.finish(.failure(failure))
            case .stalled: outcome.finish(.failure(event.failure ?? PlaybackFailure(.stalled, "the live playlist does not move")))
            case .segmentFailed(_, let failure): seen.update { $0.segmentFailure = $0.segmentFailure ?? failure }
            default: break
            }
        }
        session.start()
        let decoding = Task {
            for await delivery in session.segments {
                let result = await decodeFirstPicture(delivery)
                if case .success = result { outcome.finish(result) }
                seen.update { $0.decodeFailure = $0.decodeFailure ?? result.failure }
            }
        }
        let result = await outcome.wait(seconds: seconds) {
            let state = seen.value
            return state.decodeFailure ?? state.segmentFailure ?? PlaybackFailure(.noPicture, "no picture in \(Int(seconds)) s")
        }
        session.cancel()
        decoding.cancel()
        let state = seen.value
        let master = state.master
        var check = ChannelCheck(number: channel.number, name: channel.name, url: channel.url.absoluteString,
                                 ok: false, kind: state.raw ? .mpegTS : master != nil ? .hlsMaster : .unknown,
                                 variants: master?.variants.count,
                                 codecs: Array(Set(master?.variants.flatMap(\.codecs) ?? [])).sorted(),
                                 milliseconds: Int(((HTTPFetcher.now() - started) * 1000).rounded()))
        switch result {
        case .success(let picture):
            check.ok = true
            check.picture = "\(picture.width)x\(picture.height)"
            if check.kind == .unknown { check.kind = .hlsMedia }
            if check.codecs.isEmpty { check.codecs = picture.codecs }
        case .failure(let failure):
            if case .unsupported = failure.kind, check.kind == .unknown { check.kind = .other }
            check.failure = failure.name
            check.reason = "\(failure.words): \(failure.detail)"
        }
        return check
    }

    struct Picture: Sendable {
        var width: Int
        var height: Int
        var codecs: [String]
    }

    /// Demuxes and decodes `delivery` on a thread of its own (demuxing blocks on the bytes
    /// as they arrive) until its first picture; nil-free: every outcome is a result.
    static func decodeFirstPicture(_ delivery: HLSSegmentDelivery) async -> Result<Picture, PlaybackFailure> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(PlaybackFailure) -> Picture in
                    do {
                        let demuxer = try Demuxer(queue: delivery.bytes, container: delivery.container)
                        guard let video = demuxer.firstStream(.video) else {
                            throw PlaybackFailure(.decode, "segment \(delivery.sequence) holds no picture stream")
                        }
                        let codecs = demuxer.parameters.filter { $0.kind == .video || $0.kind == .audio }.map(\.codecName)
                        let decoder = try Decoder(demuxer.parameters[video])
                        while let packet = try demuxer.readPacket() {
                            guard packet.streamIndex == video else { continue }
                            try decoder.send(packet)
                            if let frame = try decoder.receive() { return Picture(width: frame.width, height: frame.height, codecs: codecs) }
                        }
                        throw PlaybackFailure(.decode, "segment \(delivery.sequence) ended before a picture decoded")
                    } catch let failure as PlaybackFailure {
                        throw failure
                    } catch {
                        throw PlaybackFailure(error).at("segment \(delivery.sequence)")
                    }
                })
            }
            thread.name = "zapper-check"
            thread.start()
        }
    }

    /// What the session said along the way.
    final class Seen: Sendable {
        struct State {
            var master: HLSMasterPlaylist?
            var raw = false
            var segmentFailure: PlaybackFailure?
            var decodeFailure: PlaybackFailure?
        }
        private let state = Mutex(State())
        var value: State { state.withLock { $0 } }
        func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }
    }

    /// The first outcome wins: a picture, a failure, or the time running out.
    final class Outcome: Sendable {
        private let state = Mutex<(result: Result<Picture, PlaybackFailure>?, waiter: CheckedContinuation<Void, Never>?)>((nil, nil))

        func finish(_ result: Result<Picture, PlaybackFailure>) {
            let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait(seconds: Double, timedOut: @escaping @Sendable () -> PlaybackFailure) async -> Result<Picture, PlaybackFailure> {
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                finish(.failure(timedOut()))
            }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.result != nil { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
            timer.cancel()
            return state.withLock { $0.result! }
        }
    }
}

extension Result where Failure == PlaybackFailure {
    var failure: PlaybackFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
