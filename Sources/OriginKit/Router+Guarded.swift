import Foundation

extension OriginRouter {
    /// `/guarded/ch/N/…`: channel N as a provider that wants its lineup's headers on every
    /// request (master, playlists, segments, keys) answers, else 403. `/guarded/lineup.m3u`
    /// lists channels 1–3 there, each asking for the headers a different way (and 4 without them).
    /// `/guarded/whoami` answers with the headers it was sent.
    static let guardedPrefix = "guarded"
    public static let guardedUserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ZapperTest/1"
    public static let guardedReferrer = "http://portal.example/"

    func guarded(_ request: OriginRequest, _ path: [String], baseURL: String) -> OriginReply {
        if path == ["lineup.m3u"] {
            let agent = Self.guardedUserAgent
            let escaped = agent.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? agent
            let referrer = Self.guardedReferrer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let text = """
                #EXTM3U
                #EXTINF:-1 tvg-id="g1" tvg-chno="1",Guarded by EXTVLCOPT
                #EXTVLCOPT:http-user-agent=\(agent)
                #EXTVLCOPT:http-referrer=\(Self.guardedReferrer)
                \(baseURL)/guarded/ch/1/master.m3u8
                #EXTINF:-1 tvg-id="g2" tvg-chno="2" user-agent="\(agent)" http-referrer="\(Self.guardedReferrer)",Guarded by attributes
                \(baseURL)/guarded/ch/2/master.m3u8
                #EXTINF:-1 tvg-id="g3" tvg-chno="3",Guarded by Kodi's suffix
                \(baseURL)/guarded/ch/3/master.m3u8|User-Agent=\(escaped)&Referer=\(referrer)
                #EXTINF:-1 tvg-id="g4" tvg-chno="4",Guarded, no headers given
                \(baseURL)/guarded/ch/4/master.m3u8

                """
            return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: Data(text.utf8))
        }
        if path == ["whoami"] {
            return .text(200, "User-Agent: \(request.userAgent ?? "none")\nReferer: \(request.referrer ?? "none")\nOrigin: \(request.origin ?? "none")")
        }
        guard request.userAgent == Self.guardedUserAgent, request.referrer == Self.guardedReferrer else {
            return .text(403, "forbidden: User-Agent \(request.userAgent ?? "none"), Referer \(request.referrer ?? "none")")
        }
        guard path.count >= 3, path[0] == "ch", let number = Int(path[1]), let channel = catalog.channel(number: number) else {
            return .text(404, "not found: /guarded/\(path.joined(separator: "/"))")
        }
        return channelReply(channel, Array(path.dropFirst(2)))
    }
}
