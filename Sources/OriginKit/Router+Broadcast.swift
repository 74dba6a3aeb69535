import Foundation
import Synchronization

extension OriginRouter {
    /// The broadcast channels (`BroadcastChannel`), as a headend re-streams them and as a
    /// broadcaster's own HLS carries them:
    ///
    /// | path | what it is |
    /// |---|---|
    /// | `/broadcast.m3u` | a lineup of every broadcast channel as raw MPEG-TS (the radio one `radio="true"`) |
    /// | `/broadcast-hls.m3u` | the same channels as HLS media playlists (but the multiplex) |
    /// | `/broadcast/N.ts` | channel N as one endless MPEG-TS body, paced in real time (`video/mp2t`) |
    /// | `/broadcast/N/index.m3u8`, `/broadcast/N/S.ts` | channel N as a live HLS media playlist and its segments |
    static let broadcastPrefix = "broadcast"

    func broadcastLineup(baseURL: String, hls: Bool) -> String {
        var lines = ["#EXTM3U"]
        // A multiplex's slices do not start at key frames: raw TS only.
        for channel in catalog.broadcastChannels where !(hls && channel.change?.kind == "multiplex") {
            var attributes = "tvg-id=\"\(channel.id)\" tvg-chno=\"\(channel.number)\" tvg-logo=\"\(baseURL)/logos/\(channel.number).png\""
            attributes += " group-title=\"\(channel.isRadio ? "Radio" : "Broadcast")\""
            if channel.isRadio { attributes += " radio=\"true\"" }
            lines.append("#EXTINF:-1 \(attributes),\(channel.name)")
            lines.append(hls ? "\(baseURL)/\(Self.broadcastPrefix)/\(channel.number)/index.m3u8"
                             : "\(baseURL)/\(Self.broadcastPrefix)/\(channel.number).ts")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func broadcast(_ path: [String]) -> OriginReply {
        if path.count == 1, path[0].hasSuffix(".ts"), let number = Int(path[0].dropLast(3)) {
            return broadcastStream(number, contentType: "video/mp2t")
        }
        guard path.count == 2, let number = Int(path[0]), catalog.broadcastChannel(number: number) != nil,
              let durations = library.broadcast.durations(channel: number) else {
            return .text(404, "no such broadcast path: /\(Self.broadcastPrefix)/\(path.joined(separator: "/"))")
        }
        if path[1] == "index.m3u8" {
            let text = playlists.media(durations: durations, segmentExtension: "ts", at: clock())
            return OriginReply(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(text.utf8))
        }
        guard path[1].hasSuffix(".ts"), let sequence = Int64(path[1].dropLast(3)) else { return .text(404, "not found") }
        guard playlists.timeline.isServable(sequence, at: clock()) else {
            return .text(404, "segment \(sequence) is not in the live window")
        }
        guard let data = library.broadcast.segment(channel: number, loopIndex: playlists.timeline.loopIndex(of: sequence)) else {
            return .text(404, "not found")
        }
        return OriginReply(status: 200, contentType: "video/mp2t", body: data)
    }

    /// Broadcast channel `number` as one endless MPEG-TS body; `lease` is held while it flows.
    func broadcastStream(_ number: Int, contentType: String, lease: (any Sendable)? = nil) -> OriginReply {
        guard catalog.broadcastChannel(number: number) != nil else { return .text(404, "no broadcast channel \(number)") }
        let library = self.library
        var reply = OriginReply(status: 200, contentType: contentType, body: Data())
        reply.stream = LiveTSStream(timeline: playlists.timeline, loopSeconds: catalog.loopSeconds, clock: clock,
                                    endsAt: nil, lease: lease) { loopIndex in
            library.broadcast.segment(channel: number, loopIndex: loopIndex)
        }
        return reply
    }
}
