import Foundation

extension OriginRouter {
    /// `/hostile/…` (HostileShapes): the hardening tests' hostile server.
    func hostile(_ path: [String], baseURL: String) -> OriginReply {
        let playlistType = "application/vnd.apple.mpegurl"
        guard let channel = catalog.channel(number: HostileShapes.channel) else { return .text(404, "no channel") }
        func good() -> String? {
            let reply = mediaPlaylist(channel, rendition: HostileShapes.rendition, encrypted: false)
            return reply.status == 200 ? String(decoding: reply.body, as: UTF8.self) : nil
        }
        switch path {
        case ["lineup.m3u"]:
            return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: Data(HostileShapes.lineup(baseURL: baseURL).utf8))
        case ["logo.png"]:
            return OriginReply(status: 200, contentType: "image/png", body: HostileShapes.logo)
        case ["guide.xml"]:
            return OriginReply(status: 200, contentType: "application/xml", body: Data(HostileShapes.guide.utf8))
        case ["master", "index.m3u8"]:
            return OriginReply(status: 200, contentType: playlistType, body: Data(HostileShapes.masterPlaylist.utf8))
        case ["subtitles", "master.m3u8"]:
            return OriginReply(status: 200, contentType: playlistType, body: Data(HostileShapes.subtitlesMaster.utf8))
        case ["subtitles", "subtitles.m3u8"]:
            // The good playlist's timing, each segment a hostile WebVTT file.
            guard let text = good() else { return .text(404, "not live") }
            return OriginReply(status: 200, contentType: playlistType, body: Data(text.replacingOccurrences(of: ".ts\n", with: ".vtt\n").utf8))
        case ["endless", "index.m3u8"]:
            guard let text = good() else { return .text(404, "not live") }
            return OriginReply(status: 200, contentType: playlistType, body: Data(text.utf8))
        default:
            break
        }
        if path.count == 2, path[0] == "subtitles", path[1].hasSuffix(".vtt") {
            return OriginReply(status: 200, contentType: "text/vtt", body: Data(HostileShapes.subtitleSegment.utf8))
        }
        if path.count == 2, path[0] == "endless", path[1].hasSuffix(".ts") {
            var reply = segment(channel, rendition: HostileShapes.rendition, file: path[1], encrypted: false)
            if reply.status == 200 { reply.delivery.endless = true }
            return reply
        }
        if path.count == 3, path[0] == "playlist", path[2] == "index.m3u8",
           let kind = HostileShapes.kinds.first(where: { $0.name == path[1] }) {
            guard let text = good() else { return .text(404, "not live") }
            let poisoned = kind.poison.apply(to: HostileShapes.pointingAtChannel(text))
            return OriginReply(status: 200, contentType: playlistType, body: Data(poisoned.utf8))
        }
        return .text(404, "no such hostile shape")
    }
}
