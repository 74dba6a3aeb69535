import Foundation

public struct OriginRequest: Sendable {
    public var method: String
    /// The path without the query.
    public var path: String
    /// The query, without its `?` (`/shapes/define/…` checks a token there).
    public var query: String?
    /// The Host header, used to write absolute URLs that work for this client.
    public var host: String?
    /// `http`, or `https` on the TLS listener: absolute URLs keep the scheme the client used.
    public var scheme = "http"
    public var body: Data
    /// The request's User-Agent, Referer and Origin headers (`/guarded/…` checks them).
    public var userAgent: String?
    public var referrer: String?
    public var origin: String?
    /// The request's Range header: a segment answers the one byte range it asks for.
    public var range: String?

    public init(method: String, path: String, host: String? = nil, body: Data = Data()) {
        self.method = method
        self.path = path
        self.host = host
        self.body = body
    }
}

/// How the server sends a reply: the faults turn into these.
public struct Delivery: Equatable, Sendable {
    public var delayMs = 0
    public var bytesPerSecond: Int?
    /// Send only this many bytes, with a Content-Length that says so.
    public var truncateTo: Int?
    /// Announce the whole body, send this many bytes, then reset the connection.
    public var resetAfter: Int?
    /// Answer nothing: drop the connection.
    public var dropConnection = false
    /// Announce a terabyte and send the body again and again, paced (`bytesPerSecond`, else 8 MB/s), never ending.
    public var endless = false

    public init() {}
}

public struct OriginReply: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    public var delivery = Delivery()
    /// A `Location` header (redirects).
    public var location: String?
    /// A body made as it is sent (`body` unused): chunked, until it ends.
    public var stream: (any OriginStream)?
    /// A `Content-Range` header (a `206` or `416` answer to a Range request).
    public var contentRange: String?

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    static func text(_ status: Int, _ text: String) -> OriginReply {
        OriginReply(status: status, body: Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}

/// Answers the origin's requests. Pure but for the clock, so it is tested
/// without sockets; the HTTP server only carries out its replies.
public final class OriginRouter: Sendable {
    public let library: EncodedLibrary
    public let faults: FaultBoard
    let playlists: PlaylistWriter
    let guide: GuideWriter
    let defaultHost: String
    /// The plain http listener's host:port, for the https listener's redirects down to http.
    let plainHost: String?
    let clock: @Sendable () -> Double
    /// What players uploaded (`/control/uploads`).
    let uploadBox = UploadBox()
    /// The HDHomeRun's tuners (`/hdhomerun/auto/…`).
    let tuners = TunerPool(count: OriginRouter.tunerCount)

    public init(library: EncodedLibrary, faults: FaultBoard, defaultHost: String, plainHost: String? = nil,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.library = library
        self.faults = faults
        self.defaultHost = defaultHost
        self.plainHost = plainHost
        self.clock = clock
        playlists = PlaylistWriter(timeline: LiveTimeline(catalog: library.catalog))
        guide = GuideWriter(catalog: library.catalog)
    }

    var catalog: ChannelCatalog { library.catalog }

    public func reply(to request: OriginRequest) -> OriginReply {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let baseURL = "\(request.scheme)://\(request.host ?? defaultHost)"
        if parts.first == "control" {
            return control(request, Array(parts.dropFirst()))
        }
        if parts.first == HostileShapes.prefix, request.method == "GET" {
            return hostile(Array(parts.dropFirst()), baseURL: baseURL)
        }
        if parts.first == "moved" {
            return moved(Array(parts.dropFirst()), plainHost: plainHost ?? request.host ?? defaultHost)
        }
        if parts.first == Self.guardedPrefix {
            return guarded(request, Array(parts.dropFirst()), baseURL: baseURL)
        }
        if parts.first == Self.shapesPrefix {
            return shapes(request, Array(parts.dropFirst()), baseURL: baseURL)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "only GET and HEAD here")
        }
        if parts.first == Self.broadcastPrefix {
            return broadcast(Array(parts.dropFirst()))
        }
        if parts.first == Self.hdhomerunPrefix {
            return hdhomerun(Array(parts.dropFirst()), baseURL: baseURL)
        }
        switch parts.count {
        case 0: return .text(200, index(baseURL: baseURL))
        case 1 where parts[0] == "broadcast.m3u" || parts[0] == "broadcast-hls.m3u":
            return OriginReply(status: 200, contentType: "audio/x-mpegurl",
                               body: Data(broadcastLineup(baseURL: baseURL, hls: parts[0] == "broadcast-hls.m3u").utf8))
        case 1 where parts[0] == "demo.m3u":
            return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: Data(guide.lineup(baseURL: baseURL).utf8))
        case 1 where parts[0] == "guide.xml":
            return OriginReply(status: 200, contentType: "application/xml",
                               body: Data(guide.xmltv(baseURL: baseURL, now: clock()).utf8))
        case 1 where parts[0] == "channels.json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return OriginReply(status: 200, contentType: "application/json", body: (try? encoder.encode(catalog)) ?? Data())
        case 2 where parts[0] == "logos":
            guard let number = Int(parts[1].replacingOccurrences(of: ".png", with: "")),
                  parts[1].hasSuffix(".png"), let logo = library.logo(channel: number) else {
                return .text(404, "no such logo")
            }
            return OriginReply(status: 200, contentType: "image/png", body: logo)
        default:
            guard parts.count >= 3, parts[0] == "ch", let number = Int(parts[1]),
                  let channel = catalog.channel(number: number) else {
                return .text(404, "not found: \(request.path)")
            }
            let reply = channelReply(channel, Array(parts.dropFirst(2)))
            // `/ch/N/ranges/…` stands for a server that ignores Range, as a channel with the
            // `no-range` fault does; every other segment honours it.
            let ignoresRange = parts[2] == Self.rangesFolder || faults.faults(channel: number).noRange
            return ignoresRange ? reply : reply.answering(range: request.range)
        }
    }

    // MARK: channels

    enum Resource {
        case master, playlist, segment
    }

    func channelReply(_ channel: DemoChannel, _ path: [String]) -> OriginReply {
        let fault = faults.faults(channel: channel.number)
        var reply: OriginReply
        let resource: Resource
        // `/ch/N/aes/…`: the same channel, AES-128 encrypted (SegmentEncryption).
        let encrypted = path.first == SegmentEncryption.pathPrefix
        let rest = encrypted ? Array(path.dropFirst()) : path
        if encrypted, rest.count >= 2, rest[rest.count - 2] == "key" {
            // `key/P.key` next to the encrypted form's rendition folders (MPEG-TS or fMP4).
            resource = .segment  // segment faults (404, truncation, reset) hit keys too
            let file = rest[rest.count - 1]
            guard rest.count == 2 || rest == [FragmentedMP4.pathPrefix, "key", file],
                  file.hasSuffix(".key"), let period = Int64(file.dropLast(4)) else { return .text(404, "no such key") }
            reply = OriginReply(status: 200, contentType: "application/octet-stream",
                                body: Data(SegmentEncryption.key(channel: channel.number, period: period)))
        } else if rest.first == FragmentedMP4.pathPrefix {
            // `/ch/N/fmp4/…` (`/ch/N/aes/fmp4/…` encrypted): FragmentedMP4's channel as fMP4.
            guard let (fragmentedReply, fragmentedResource) = fragmented(channel, Array(rest.dropFirst()), encrypted: encrypted) else {
                return .text(404, "not found")
            }
            reply = fragmentedReply
            resource = fragmentedResource
        } else if rest == ["master.m3u8"] {
            resource = .master
            reply = OriginReply(status: 200, contentType: "application/vnd.apple.mpegurl",
                                body: Data(playlists.master(channel: channel, library: library).utf8))
        } else if rest.first == Self.rangesFolder, rest.count == 2, !encrypted {
            // `/ch/N/ranges/…`: the 240p loop as one file, each segment a byte range of it.
            guard let (rangesReply, rangesResource) = ranges(channel, file: rest[1]) else { return .text(404, "not found") }
            reply = rangesReply
            resource = rangesResource
        } else if rest == [SplitAudio.masterFile], SplitAudio.channels.contains(channel.number) {
            resource = .master
            reply = OriginReply(status: 200, contentType: "application/vnd.apple.mpegurl",
                                body: Data(playlists.splitMaster(channel: channel, library: library).utf8))
        } else if rest.count == 2, rest[1] == "index.m3u8" {
            resource = .playlist
            reply = mediaPlaylist(channel, rendition: rest[0], encrypted: encrypted)
        } else if rest.count == 2 {
            resource = .segment
            reply = segment(channel, rendition: rest[0], file: rest[1], encrypted: encrypted)
            if fault.freeze, !encrypted, reply.status == 200, reply.contentType == "video/mp2t" {
                // Every segment from the fault's start repeats the first picture of the first one served.
                reply.body = FrozenPicture.freeze(reply.body) { faults.frozenPicture(channel: channel.number, rendition: rest[0], first: $0) }
            }
        } else {
            return .text(404, "not found")
        }
        apply(fault, to: &reply, resource: resource)
        return reply
    }

    private func apply(_ fault: FaultSet, to reply: inout OriginReply, resource: Resource) {
        reply.delivery.delayMs = fault.delayMs
        reply.delivery.bytesPerSecond = fault.bytesPerSecond
        if fault.outage {
            reply.delivery.dropConnection = true
            return
        }
        switch resource {
        case .master, .playlist:
            if let status = fault.playlistStatus, reply.status == 200 {
                let delivery = reply.delivery
                reply = .text(status, "fault: playlist-5xx")
                reply.delivery = delivery
            }
        case .segment:
            guard reply.status == 200 else { return }
            if fault.segment404 {
                let delivery = reply.delivery
                reply = .text(404, "fault: segment-404")
                reply.delivery = delivery
                return
            }
            if let fraction = fault.truncateFraction {
                reply.delivery.truncateTo = Int(Double(reply.body.count) * fraction)
            }
            if let fraction = fault.resetFraction {
                reply.delivery.resetAfter = Int(Double(reply.body.count) * fraction)
            }
        }
    }

    /// The channel's rendition folders: video variants and subtitles. A
    /// subtitle playlist follows the video's segment durations, so its
    /// segments line up with the video's one for one.
    private func renditionKind(_ channel: DemoChannel, _ name: String) -> (durations: [Double], extension: String)? {
        guard let renditions = library.entry(channel: channel.number)?.renditions else { return nil }
        if channel.subtitleTracks.contains(where: { EncodeRecipe.subtitleDirectory(language: $0.language) == name }) {
            return renditions[EncodeRecipe.videoDirectory(VideoVariant.all[0])].map { (durations: $0, extension: "vtt") }
        }
        return renditions[name].map { (durations: $0, extension: "ts") }
    }

    static let rangesFolder = "ranges"

    /// The byte-range form: `index.m3u8` lists each segment as an EXT-X-BYTERANGE of
    /// `240p.ts`, the 240p loop's segments back to back. Like many simple servers,
    /// the origin ignores Range and sends the whole file: the client cuts its range out.
    private func ranges(_ channel: DemoChannel, file: String) -> (OriginReply, Resource)? {
        let rendition = EncodeRecipe.videoDirectory(VideoVariant.all[0])
        guard let durations = library.entry(channel: channel.number)?.renditions[rendition] else { return nil }
        let name = "\(rendition).ts"
        if file == "index.m3u8" {
            let sizes = library.segmentSizes(channel: channel.number, rendition: rendition)
            let text = playlists.media(durations: durations, segmentExtension: "ts", at: faults.playlistTime(channel: channel.number, now: clock()),
                                       rangesOf: (name, sizes))
            return (OriginReply(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(text.utf8)), .playlist)
        }
        guard file == name else { return nil }
        let whole = durations.indices.compactMap { library.segment(channel: channel.number, rendition: rendition, loopIndex: $0) }
        return (OriginReply(status: 200, contentType: "video/mp2t", body: whole.reduce(Data(), +)), .segment)
    }

    func mediaPlaylist(_ channel: DemoChannel, rendition: String, encrypted: Bool) -> OriginReply {
        guard let kind = renditionKind(channel, rendition) else { return .text(404, "no rendition \(rendition)") }
        let time = faults.playlistTime(channel: channel.number, now: clock())
        // Subtitles stay in the clear.
        let text = playlists.media(durations: kind.durations, segmentExtension: kind.extension, at: time,
                                   encryptedChannel: encrypted && kind.extension == "ts" ? channel.number : nil)
        return OriginReply(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(text.utf8))
    }

    func segment(_ channel: DemoChannel, rendition: String, file: String, encrypted: Bool) -> OriginReply {
        guard let kind = renditionKind(channel, rendition), file.hasSuffix(".\(kind.extension)"),
              let sequence = Int64(file.dropLast(kind.extension.count + 1)) else {
            return .text(404, "not found")
        }
        guard playlists.timeline.isServable(sequence, at: clock()) else {
            return .text(404, "segment \(sequence) is not in the live window")
        }
        let loopIndex = playlists.timeline.loopIndex(of: sequence)
        if kind.extension == "vtt" {
            guard let track = channel.subtitleTracks.first(where: { EncodeRecipe.subtitleDirectory(language: $0.language) == rendition }),
                  let entry = library.entry(channel: channel.number) else { return .text(404, "not found") }
            let text = playlists.subtitleSegment(channel: channel, track: track, sequence: sequence,
                                                 loopDurations: kind.durations, videoStartPTS: entry.videoStartPTS)
            return OriginReply(status: 200, contentType: "text/vtt; charset=utf-8", body: Data(text.utf8))
        }
        guard let data = library.segment(channel: channel.number, rendition: rendition, loopIndex: loopIndex) else {
            return .text(404, "not found")
        }
        guard encrypted else { return OriginReply(status: 200, contentType: "video/mp2t", body: data) }
        do {
            return OriginReply(status: 200, contentType: "video/mp2t",
                               body: try SegmentEncryption.encrypt(data, channel: channel.number, sequence: sequence))
        } catch {
            return .text(500, "encrypting segment \(sequence): \(error)")
        }
    }
}
