import Foundation

extension OriginRouter {
    /// `/shapes/…`: RFC 8216bis playlist shapes, each made of a real channel's live stream.
    ///
    /// | path | what it is |
    /// |---|---|
    /// | `/shapes/lineup.m3u` | a lineup of the channels below, the failover shapes (`Router+Failover`) and the raw shapes (`Router+RawTS`) |
    /// | `/shapes/gap/master.m3u8` | channel `gapChannel`'s 240p, every segment whose sequence is 1 modulo 4 marked EXT-X-GAP; cue tags too (`cueTag`, `dateRanges`) |
    /// | `/shapes/big.m3u?count=N` | N entries (10,000 by default) written as public lists are (`BigLineup`); `&guide=1`: with the guide below |
    /// | `/shapes/big-guide.xml?count=N` | XMLTV for those entries: six hours of programmes each |
    /// | `/shapes/gap/240p/N.ts` | that segment; a gap's answers 404, so fetching one shows |
    /// | `/shapes/gap/copies.m3u8` | the same 240p listed twice (redundant copies, as two encoders give): copy `a` with its gaps where `isGap` says, copy `b` with its gaps two segments later (`isGap(sequence - 2)`), so each copy's gaps are whole in the other (not in the shapes lineup) |
    /// | `/shapes/gap/a/index.m3u8`, `/shapes/gap/b/index.m3u8`, `…/N.ts` | the copies' media playlists and segments (a gap's 404) |
    /// | `/shapes/define/login.m3u8` | 302 to the master below with `?token=` `shapesToken`, as a portal hands out a session |
    /// | `/shapes/define/master.m3u8?token=T` | channel `defineChannel` (240p and English subtitles) through EXT-X-DEFINE: QUERYPARAM="token" and NAME="cdn" |
    /// | `/shapes/define/R/index.m3u8?token=T` | rendition R's media playlist: IMPORT="cdn", QUERYPARAM="token", NAME="rendition" in every segment URI |
    /// | `/shapes/define/R/N.ts?token=T` | its segments (`.vtt` for subtitles) |
    ///
    /// | `/shapes/raw/…` | raw MPEG-TS streams and answers that are no stream (`rawShape`) |
    ///
    /// Under `/shapes/define/`, media playlists and segments answer 403 without the token.
    static let shapesPrefix = "shapes"
    public static let gapChannel = 2
    public static let defineChannel = 1
    public static let shapesToken = "zapper-shapes-7f3a"

    /// Whether segment `sequence` of `/shapes/gap/` is a gap.
    public static func isGap(_ sequence: Int64) -> Bool { ((sequence % 4) + 4) % 4 == 1 }

    /// The redundant copies of `/shapes/gap/copies.m3u8`, and whether `sequence` is a gap in `copy`.
    public static let gapCopies = ["a", "b"]
    public static func isGap(_ sequence: Int64, copy: String) -> Bool { isGap(copy == "a" ? sequence : sequence - 2) }

    /// The cue tag before segment `sequence` of `/shapes/gap/`: an ad break of two segments
    /// (EXT-X-CUE-OUT at 2 modulo 8, EXT-X-CUE-IN at 6 modulo 8: never a gap).
    public static func cueTag(_ sequence: Int64) -> String? {
        switch ((sequence % 8) + 8) % 8 {
        case 2: "#EXT-X-CUE-OUT:4.0"
        case 6: "#EXT-X-CUE-IN"
        default: nil
        }
    }

    /// The date ranges at the head of `/shapes/gap/`'s media playlist: a programme
    /// marker, and a break whose SCTE35-OUT is the SCTE-35 standard's splice_insert
    /// example (event 0x4800008F, a 60.293566 s break).
    public static let dateRanges = [
        "#EXT-X-DATERANGE:ID=\"programme-1\",CLASS=\"com.example.programme\",START-DATE=\"2026-01-01T00:00:00Z\",DURATION=3600",
        "#EXT-X-DATERANGE:ID=\"splice-1\",START-DATE=\"2026-01-01T00:10:00Z\",SCTE35-OUT="
            + "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A",
    ]

    func shapes(_ request: OriginRequest, _ path: [String], baseURL: String) -> OriginReply {
        guard request.method == "GET" || request.method == "HEAD" else { return .text(405, "only GET and HEAD here") }
        switch path.first {
        case "lineup.m3u" where path.count == 1:
            let text = """
                #EXTM3U
                #EXTINF:-1 tvg-id="gap.shapes" tvg-chno="1",Gaps (EXT-X-GAP)
                \(baseURL)/shapes/gap/master.m3u8
                #EXTINF:-1 tvg-id="define.shapes" tvg-chno="2",Variables (EXT-X-DEFINE)
                \(baseURL)/shapes/define/login.m3u8
                \(failoverLineup(baseURL: baseURL))
                """ + rawLineup(baseURL: baseURL, first: 3)
            return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: Data(text.utf8))
        case "big.m3u" where path.count == 1, "big-guide.xml" where path.count == 1:
            let count = request.query.flatMap { query in
                query.split(separator: "&").first { $0.hasPrefix("count=") }.flatMap { Int($0.dropFirst(6)) }
            } ?? 10_000
            guard (1...BigLineup.maxCount).contains(count) else { return .text(400, "count must be 1 to \(BigLineup.maxCount)") }
            if path[0] == "big-guide.xml" {
                return OriginReply(status: 200, contentType: "application/xml", body: Data(BigLineup.guide(count: count, now: Date().timeIntervalSince1970).utf8))
            }
            let bigGuide = request.query?.split(separator: "&").contains("guide=1") ?? false
            let text = BigLineup.text(count: count, baseURL: baseURL, channels: catalog.channels.map(\.number), bigGuide: bigGuide)
            return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: Data(text.utf8))
        case "gap": return gapShape(Array(path.dropFirst()))
        case "define": return defineShape(request, Array(path.dropFirst()), baseURL: baseURL)
        case "redundant": return redundantShape(Array(path.dropFirst()), baseURL: baseURL)
        case "dead": return Self.deadHost
        case "raw": return rawShape(Array(path.dropFirst()))
        default: return .text(404, "no such shape: /shapes/\(path.joined(separator: "/"))")
        }
    }

    static let playlistType = "application/vnd.apple.mpegurl"
    static let videoRendition = EncodeRecipe.videoDirectory(VideoVariant.all[0])

    /// A master playlist of the channel's 240p; `head` and `uri` may use variables,
    /// `subtitles` is an EXT-X-MEDIA line.
    func shapeMaster(_ channel: DemoChannel, head: [String], uri: String, subtitles: String?) -> String {
        let entry = library.entry(channel: channel.number)
        let rates = PlaylistWriter.bitrates(sizes: library.segmentSizes(channel: channel.number, rendition: Self.videoRendition),
                                            durations: entry?.renditions[Self.videoRendition] ?? [])
        let variant = VideoVariant.all[0]
        var lines = ["#EXTM3U", "#EXT-X-VERSION:11", "#EXT-X-INDEPENDENT-SEGMENTS"] + head
        if let subtitles { lines.append(subtitles) }
        lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(rates.peak),AVERAGE-BANDWIDTH=\(rates.average),"
            + "RESOLUTION=\(variant.width)x\(variant.height),CODECS=\"\(variant.codecs)\"" + (subtitles == nil ? "" : ",SUBTITLES=\"subs\""))
        lines.append(uri)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The channel's live media playlist of `rendition`, each segment line (`N.ts`, `N.vtt`) passed through `line`.
    func shapeMedia(_ channel: DemoChannel, rendition: String, head: [String] = [],
                            line: (_ sequence: Int64, _ file: String) -> String) -> OriginReply {
        let reply = mediaPlaylist(channel, rendition: rendition, encrypted: false)
        guard reply.status == 200 else { return reply }
        var lines: [String] = []
        for text in String(decoding: reply.body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if text == "#EXTM3U" {
                lines += ["#EXTM3U"] + head
            } else if !text.hasPrefix("#"), let dot = text.firstIndex(of: "."), let sequence = Int64(text[..<dot]) {
                lines.append(line(sequence, String(text)))
            } else {
                lines.append(String(text))
            }
        }
        return OriginReply(status: 200, contentType: Self.playlistType, body: Data(lines.joined(separator: "\n").utf8))
    }

    private func gapShape(_ path: [String]) -> OriginReply {
        guard let channel = catalog.channel(number: Self.gapChannel) else { return .text(404, "no channel") }
        switch path {
        case ["master.m3u8"]:
            let text = shapeMaster(channel, head: [], uri: "\(Self.videoRendition)/index.m3u8", subtitles: nil)
            return OriginReply(status: 200, contentType: Self.playlistType, body: Data(text.utf8))
        case ["copies.m3u8"]:
            let lines = shapeMaster(channel, head: [], uri: "a/index.m3u8", subtitles: nil).split(separator: "\n").map(String.init)
            guard let streamInf = lines.last(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) else { return .text(500, "no variant") }
            return OriginReply(status: 200, contentType: Self.playlistType, body: Data(((lines + [streamInf, "b/index.m3u8"]).joined(separator: "\n") + "\n").utf8))
        case let copy where copy.count == 2 && Self.gapCopies.contains(copy[0]):
            return gapCopy(channel, copy: copy[0], file: copy[1])
        case [Self.videoRendition, "index.m3u8"]:
            return shapeMedia(channel, rendition: Self.videoRendition, head: Self.dateRanges) { sequence, file in
                let tags = [Self.cueTag(sequence), Self.isGap(sequence) ? "#EXT-X-GAP" : nil].compactMap { $0 }
                return (tags + [file]).joined(separator: "\n")
            }
        default:
            guard path.count == 2, path[0] == Self.videoRendition, path[1].hasSuffix(".ts"),
                  let sequence = Int64(path[1].dropLast(3)) else { return .text(404, "not found") }
            if Self.isGap(sequence) { return .text(404, "segment \(sequence) is an EXT-X-GAP: it must not be fetched") }
            return segment(channel, rendition: Self.videoRendition, file: path[1], encrypted: false)
        }
    }

    /// A file of `/shapes/gap/a/` or `/shapes/gap/b/`.
    private func gapCopy(_ channel: DemoChannel, copy: String, file: String) -> OriginReply {
        if file == "index.m3u8" {
            return shapeMedia(channel, rendition: Self.videoRendition) { sequence, file in
                Self.isGap(sequence, copy: copy) ? "#EXT-X-GAP\n\(file)" : file
            }
        }
        guard file.hasSuffix(".ts"), let sequence = Int64(file.dropLast(3)) else { return .text(404, "not found") }
        if Self.isGap(sequence, copy: copy) { return .text(404, "segment \(sequence) of copy \(copy) is an EXT-X-GAP: it must not be fetched") }
        return segment(channel, rendition: Self.videoRendition, file: file, encrypted: false)
    }

    private func defineShape(_ request: OriginRequest, _ path: [String], baseURL: String) -> OriginReply {
        guard let channel = catalog.channel(number: Self.defineChannel) else { return .text(404, "no channel") }
        let subtitles = channel.subtitleTracks.first.map { EncodeRecipe.subtitleDirectory(language: $0.language) }
        switch path {
        case ["login.m3u8"]:
            var reply = OriginReply.text(302, "moved")
            reply.location = "/shapes/define/master.m3u8?token=\(Self.shapesToken)"
            return reply
        case ["master.m3u8"]:
            // The master itself is public: without a token its QUERYPARAM has nothing to read.
            let media = subtitles.map { folder in
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",LANGUAGE=\"en\",NAME=\"English\",DEFAULT=NO,AUTOSELECT=YES,"
                    + "URI=\"{$cdn}/\(folder)/index.m3u8?token={$token}\""
            }
            let text = shapeMaster(channel, head: ["#EXT-X-DEFINE:QUERYPARAM=\"token\"",
                                                   "#EXT-X-DEFINE:NAME=\"cdn\",VALUE=\"\(baseURL)/shapes/define\""],
                                   uri: "{$cdn}/\(Self.videoRendition)/index.m3u8?token={$token}", subtitles: media)
            return OriginReply(status: 200, contentType: Self.playlistType, body: Data(text.utf8))
        default:
            break
        }
        guard path.count == 2, path[0] == Self.videoRendition || path[0] == subtitles else { return .text(404, "not found") }
        guard Self.queryValue("token", in: request.query) == Self.shapesToken else {
            return .text(403, "forbidden: no token=\(Self.shapesToken) in the query")
        }
        let rendition = path[0]
        if path[1] == "index.m3u8" {
            let head = ["#EXT-X-DEFINE:IMPORT=\"cdn\"", "#EXT-X-DEFINE:QUERYPARAM=\"token\"",
                        "#EXT-X-DEFINE:NAME=\"rendition\",VALUE=\"\(rendition)\""]
            return shapeMedia(channel, rendition: rendition, head: head) { _, file in "{$cdn}/{$rendition}/\(file)?token={$token}" }
        }
        return segment(channel, rendition: rendition, file: path[1], encrypted: false)
    }

    /// The first value of `name` in a URL query (not percent-decoded: the token needs none).
    static func queryValue(_ name: String, in query: String?) -> String? {
        query?.split(separator: "&").lazy.compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0] == name ? String(parts[1]) : nil
        }.first
    }
}
