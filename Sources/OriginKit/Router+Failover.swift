import Foundation

extension OriginRouter {
    /// `/shapes/…` for failover: a host that is down, a master listing its variant
    /// twice (RFC 8216 §6.3.3 redundant streams) with the first copy on that host,
    /// and lineup entries that are one channel whose first stream is on that host.
    ///
    /// | path | what it is |
    /// |---|---|
    /// | `/shapes/dead/…` | a host that is down: everything answers 503 |
    /// | `/shapes/redundant/master.m3u8` | channel `redundantChannel`'s 240p listed twice: under `/shapes/dead/`, then under `/shapes/redundant/live/` |
    /// | `/shapes/redundant/segments.m3u8` | the same, the first copy's playlist answering but its segments on the dead host |
    /// | `/shapes/redundant/live/240p/index.m3u8`, `…/N.ts` | the live copy's media playlist and segments |
    /// | `/shapes/redundant/broken/240p/index.m3u8` | a media playlist whose segments are under `/shapes/dead/` |
    ///
    /// In the shapes lineup: channel `redundantNumber` plays the master above; channel
    /// `mergedNumber` is two entries with one `tvg-id` and one name but for a quality tag,
    /// the first at `/shapes/dead/master.m3u8`, the second channel `mergedChannel`'s own master.
    public static let redundantChannel = 3
    public static let mergedChannel = 4
    public static let redundantNumber = 10
    public static let mergedNumber = 11

    static let deadHost = OriginReply.text(503, "this host is down (a failover shape)")

    /// The failover block of `/shapes/lineup.m3u`.
    func failoverLineup(baseURL: String) -> String {
        """
        #EXTINF:-1 tvg-id="redundant.shapes" tvg-chno="\(Self.redundantNumber)",Redundant variants (first host down)
        \(baseURL)/shapes/redundant/master.m3u8
        #EXTINF:-1 tvg-id="merged.shapes" tvg-chno="\(Self.mergedNumber)",Merged sources (1080p)
        \(baseURL)/shapes/dead/master.m3u8
        #EXTINF:-1 tvg-id="merged.shapes",Merged sources HD [Not 24/7]
        \(baseURL)/ch/\(Self.mergedChannel)/master.m3u8

        """
    }

    func redundantShape(_ path: [String], baseURL: String) -> OriginReply {
        guard let channel = catalog.channel(number: Self.redundantChannel) else { return .text(404, "no channel") }
        let rendition = Self.videoRendition
        switch path {
        case ["master.m3u8"]:
            return redundantMaster(channel, first: "\(baseURL)/shapes/dead/\(rendition)/index.m3u8", baseURL: baseURL)
        case ["segments.m3u8"]:
            return redundantMaster(channel, first: "\(baseURL)/shapes/redundant/broken/\(rendition)/index.m3u8", baseURL: baseURL)
        case ["live", rendition, "index.m3u8"]:
            return shapeMedia(channel, rendition: rendition) { _, file in file }
        case ["broken", rendition, "index.m3u8"]:
            return shapeMedia(channel, rendition: rendition) { _, file in "\(baseURL)/shapes/dead/\(rendition)/\(file)" }
        default:
            guard path.count == 3, path[0] == "live", path[1] == rendition, path[2].hasSuffix(".ts") else {
                return .text(404, "not found")
            }
            return segment(channel, rendition: rendition, file: path[2], encrypted: false)
        }
    }

    /// The channel's 240p at `first`, then the same STREAM-INF again with the live copy's URI.
    private func redundantMaster(_ channel: DemoChannel, first: String, baseURL: String) -> OriginReply {
        let live = "\(baseURL)/shapes/redundant/live/\(Self.videoRendition)/index.m3u8"
        let lines = shapeMaster(channel, head: [], uri: first, subtitles: nil).split(separator: "\n").map(String.init)
        guard let streamInf = lines.last(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) else { return .text(500, "no variant") }
        let text = (lines + [streamInf, live]).joined(separator: "\n") + "\n"
        return OriginReply(status: 200, contentType: Self.playlistType, body: Data(text.utf8))
    }
}
