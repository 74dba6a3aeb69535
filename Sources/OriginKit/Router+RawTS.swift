import Foundation
import Synchronization

extension OriginRouter {
    /// `/shapes/raw/…`: a channel as a raw MPEG-TS byte stream over HTTP (as IPTV panels,
    /// `/play/…` servers and udpxy serve them), and three answers that are no stream at all.
    /// No stream path ends in `.ts`: a client must know the kind by the bytes or the type.
    ///
    /// | path | what it is |
    /// |---|---|
    /// | `/shapes/raw/play/a013` | channel `rawChannel`'s 240p as one endless body, paced in real time, as `application/octet-stream` |
    /// | `/shapes/raw/udp/239.0.0.6:1234` | channel `rawDropChannel` the same (`video/mp2t`), but every connection is dropped after `rawDropSeconds` |
    /// | `/shapes/raw/portal` | a web page (`text/html`) |
    /// | `/shapes/raw/live/manifest` | a DASH manifest (`application/dash+xml`) |
    /// | `/shapes/raw/empty` | 200 with an empty body |
    /// | `/shapes/raw/play/clock-jumps` | channel `rawChannel` as `/play/a013`, but its clock jumps inside the connection, as a restarted encoder's does: an hour on every `rawJumpSegments` segments, and back again the next time (not in the shapes lineup) |
    public static let rawChannel = 5
    public static let rawDropChannel = 6
    public static let rawDropSeconds = 5.0
    public static let rawJumpPath = "play/clock-jumps"
    public static let rawJumpSegments: Int64 = 3
    public static let rawPaths = ["play/a013", "udp/239.0.0.6:1234", "portal", "live/manifest", "empty"]

    /// The lineup lines of the raw shapes, channel numbers from `first` on.
    func rawLineup(baseURL: String, first: Int) -> String {
        let names = ["Raw MPEG-TS (/play)", "Raw MPEG-TS that drops (udpxy)", "A web page", "A DASH manifest", "An empty answer"]
        return zip(names, Self.rawPaths).enumerated().map { index, shape in
            "#EXTINF:-1 tvg-id=\"raw\(index + 1).shapes\" tvg-chno=\"\(first + index)\",\(shape.0)\n\(baseURL)/shapes/raw/\(shape.1)\n"
        }.joined()
    }

    func rawShape(_ path: [String]) -> OriginReply {
        switch path.joined(separator: "/") {
        case Self.rawPaths[0]: return liveTS(channel: Self.rawChannel, contentType: "application/octet-stream", dropAfter: nil)
        case Self.rawPaths[1]: return liveTS(channel: Self.rawDropChannel, contentType: "video/mp2t", dropAfter: Self.rawDropSeconds)
        case Self.rawPaths[2]:
            let page = "<!DOCTYPE html>\n<html><head><title>Player</title></head><body><p>Please log in.</p></body></html>\n"
            return OriginReply(status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
        case Self.rawPaths[3]:
            let mpd = """
                <?xml version="1.0" encoding="UTF-8"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
                  <Period id="0" start="PT0S"><AdaptationSet mimeType="video/mp4"/></Period>
                </MPD>

                """
            return OriginReply(status: 200, contentType: "application/dash+xml", body: Data(mpd.utf8))
        case Self.rawPaths[4]: return OriginReply(status: 200, contentType: "video/mp2t", body: Data())
        case Self.rawJumpPath: return liveTS(channel: Self.rawChannel, contentType: "video/mp2t", dropAfter: nil, jumpEvery: Self.rawJumpSegments)
        default: return .text(404, "no such raw shape: /shapes/raw/\(path.joined(separator: "/"))")
        }
    }

    private func liveTS(channel number: Int, contentType: String, dropAfter: Double?, jumpEvery: Int64? = nil) -> OriginReply {
        guard catalog.channel(number: number) != nil else { return .text(404, "no channel \(number)") }
        let rendition = EncodeRecipe.videoDirectory(VideoVariant.all[0])
        let library = self.library
        let now = clock()
        var reply = OriginReply(status: 200, contentType: contentType, body: Data())
        reply.stream = LiveTSStream(timeline: playlists.timeline, loopSeconds: catalog.loopSeconds, clock: clock,
                                    endsAt: dropAfter.map { now + $0 }, jumpEvery: jumpEvery) { loopIndex in
            library.segment(channel: number, rendition: rendition, loopIndex: loopIndex)
        }
        return reply
    }
}

/// One connection's live MPEG-TS body: the newest complete segment at once (as a
/// server sends what it has buffered), then each next one as the wall clock plays
/// it, retimed so that the loop's restarts are invisible (`jumpEvery`: but for an hour's
/// jump of its clock every that many segments, on and back in turn).
final class LiveTSStream: OriginStream {
    private struct State {
        var sequence: Int64
        var sent = 0
        var current: Data?
        var retimer = TSRetimer()
    }
    private let timeline: LiveTimeline
    private let loopSeconds: Int
    private let clock: @Sendable () -> Double
    private let endsAt: Double?
    private let jumpEvery: Int64?
    private let segment: @Sendable (Int) -> Data?
    /// Held while the body flows (an HDHomeRun's tuner), let go when the connection closes.
    private let lease: Mutex<(any Sendable)?>
    private let firstLoop: Int64
    private let firstSequence: Int64
    private let state: Mutex<State>

    init(timeline: LiveTimeline, loopSeconds: Int, clock: @escaping @Sendable () -> Double, endsAt: Double?,
         jumpEvery: Int64? = nil, lease: (any Sendable)? = nil, segment: @escaping @Sendable (Int) -> Data?) {
        self.lease = Mutex(lease)
        self.timeline = timeline
        self.loopSeconds = loopSeconds
        self.clock = clock
        self.endsAt = endsAt
        self.jumpEvery = jumpEvery
        self.segment = segment
        let first = timeline.liveEdge(at: clock())
        firstLoop = timeline.discontinuityNumber(of: first)
        firstSequence = first
        state = Mutex(State(sequence: first))
    }

    func closed() { lease.withLock { $0 = nil } }

    func next() -> OriginStreamStep {
        let now = clock()
        if let endsAt, now >= endsAt { return .drop }
        return state.withLock { state in
            var out = Data()
            let seconds = Double(timeline.segmentSeconds)
            while true {
                if state.current == nil {
                    guard let data = segment(timeline.loopIndex(of: state.sequence)) else { return .end }
                    let loops = timeline.discontinuityNumber(of: state.sequence) - firstLoop
                    let jumped = jumpEvery.map { ((state.sequence - firstSequence) / max($0, 1)) % 2 == 1 } ?? false
                    state.current = state.retimer.retime(data, by: loops * Int64(loopSeconds) * 90_000 + (jumped ? 3600 * 90_000 : 0))
                }
                let data = state.current!
                let played = min(1, max(0, (now - Double(state.sequence) * seconds) / seconds))
                let due = played >= 1 ? data.count : max(state.sent, Int(Double(data.count) * played) / 188 * 188)
                out += data[(data.startIndex + state.sent)..<(data.startIndex + due)]
                state.sent = due
                guard due == data.count else { return .bytes(out) }
                state.sequence += 1
                state.sent = 0
                state.current = nil
            }
        }
    }
}
