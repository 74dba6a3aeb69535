import Foundation

/// What the cache holds for a catalog: one entry per channel.
public struct CacheManifest: Codable, Sendable {
    public var recipe: String
    public var ffmpeg: String
    /// Seconds the channels' encodes took when they were made (not this run).
    public var encodeSeconds: Double
    public var channels: [Channel]

    /// One channel's encode, written last into its folder so a folder with
    /// a `channel.json` is complete.
    public struct Channel: Codable, Sendable {
        public var number: Int
        /// The channel's folder under the cache root.
        public var folder: String
        public var createdAt: Date
        public var encodeSeconds: Double
        /// The 90 kHz PTS of the loop's first video frame (for WebVTT's X-TIMESTAMP-MAP).
        public var videoStartPTS: Int64
        /// Segment durations per rendition folder ("240p", "720p", "1080p"; and CodecForms' for its channel).
        public var renditions: [String: [Double]]
        /// The fMP4 remux's segment durations per rendition (FragmentedMP4), for its channel only.
        public var fragmented: [String: [Double]]?
    }
}

/// The pre-encoded loops, made once with `ffmpeg` and reused by later runs.
/// Each channel has its own folder, named after that channel's catalog
/// entry, the loop and segment lengths, the recipe, the ffmpeg version and
/// the font: a change to one channel encodes that channel again, a change
/// to the recipe or the tools encodes all. Concurrent origins wait on a
/// lock instead of encoding twice.
public struct EncodeCache: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    /// `$ZAPPER_ORIGIN_CACHE`, else `$XDG_CACHE_HOME/zapper-origin`, else `~/.cache/zapper-origin`.
    public static func defaultRoot() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["ZAPPER_ORIGIN_CACHE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("zapper-origin")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/zapper-origin")
    }

    public struct Prepared: Sendable {
        /// The cache root; each channel's folder is `manifest.channels[i].folder` under it.
        public let directory: URL
        public let manifest: CacheManifest
        /// The channels encoded by this run (empty: all reused).
        public let encoded: [Int]
        /// The broadcast channels' folders (`BroadcastCache`).
        public let broadcast: [BroadcastCache.Entry]
        public var reused: Bool { encoded.isEmpty }
    }

    /// The folder name of a channel's encode: its number and a hash of all that shapes its output.
    static func folderName(channel: DemoChannel, catalog: ChannelCatalog, ffmpeg: String, font: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let identity = try encoder.encode(channel)
            + Data("|\(catalog.loopSeconds)|\(catalog.segmentSeconds)|\(EncodeRecipe.version)|\(ffmpeg)|\(font)".utf8)
            + Data((channel.captionTracks.isEmpty ? "" : "|\(CaptionedChannel.version)").utf8)
        return "ch\(channel.number)-\(fnv1a(identity))"
    }

    /// Returns the cache's entries for the catalog, encoding the channels that are missing.
    public func prepare(catalog: ChannelCatalog, log: @Sendable (String) -> Void) throws -> Prepared {
        let ffmpegVersion = try Tools.run("ffmpeg", ["-version"]).output
            .split(separator: "\n").first.map(String.init) ?? "unknown"
        let font = try Tools.boldFont()
        let folders = try catalog.channels.map {
            try Self.folderName(channel: $0, catalog: catalog, ffmpeg: ffmpegVersion, font: font)
        }
        func cached() -> [CacheManifest.Channel?] {
            folders.map { try? readEntry(root.appendingPathComponent($0).appendingPathComponent("channel.json")) }
        }
        var entries = cached()
        var encoded: [Int] = []
        if entries.contains(where: { $0 == nil }) {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let lock = try FileLock(path: root.appendingPathComponent(".lock").path)
            defer { lock.unlock() }
            // Another origin may have finished some while we waited.
            entries = cached()
            // Under the lock, any partial folder is left over from an encode that died.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasPrefix("partial-") {
                try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
            }
            let missing = entries.indices.filter { entries[$0] == nil }
            for (step, index) in missing.enumerated() {
                let channel = catalog.channels[index]
                log("encoding channel \(channel.number) \"\(channel.name)\" (\(step + 1) of \(missing.count))…")
                entries[index] = try encodeChannel(channel, catalog: catalog, font: font, folder: folders[index])
                encoded.append(channel.number)
            }
        }
        var channels = entries.compactMap { $0 }
        for index in channels.indices where channels[index].number == FragmentedMP4.channel {
            channels[index].fragmented = try FragmentedMP4.prepare(
                channelFolder: root.appendingPathComponent(channels[index].folder), loopSegments: catalog.loopSegments,
                lockPath: root.appendingPathComponent(".lock").path)
        }
        for index in channels.indices where channels[index].number == CodecForms.channel {
            let forms = try CodecForms.prepare(
                channelFolder: root.appendingPathComponent(channels[index].folder), loopSegments: catalog.loopSegments,
                segmentSeconds: catalog.segmentSeconds, lockPath: root.appendingPathComponent(".lock").path)
            channels[index].renditions.merge(forms) { old, _ in old }
        }
        for index in channels.indices where SplitAudio.channels.contains(channels[index].number) {
            guard let channel = catalog.channel(number: channels[index].number) else { continue }
            let split = try SplitAudio.prepare(
                channel: channel, channelFolder: root.appendingPathComponent(channels[index].folder),
                loopSegments: catalog.loopSegments, segmentSeconds: catalog.segmentSeconds,
                lockPath: root.appendingPathComponent(".lock").path)
            channels[index].renditions.merge(split) { old, _ in old }
        }
        let broadcast = try BroadcastCache.prepare(catalog: catalog, root: root, ffmpeg: ffmpegVersion, font: font, log: log)
        let manifest = CacheManifest(recipe: EncodeRecipe.version, ffmpeg: ffmpegVersion,
                                     encodeSeconds: channels.map(\.encodeSeconds).reduce(0, +), channels: channels)
        return Prepared(directory: root, manifest: manifest, encoded: encoded + broadcast.encoded, broadcast: broadcast.entries)
    }

    private func readEntry(_ url: URL) throws -> CacheManifest.Channel {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(CacheManifest.Channel.self, from: Data(contentsOf: url))
    }

    /// Encodes one channel into a partial folder, then moves it into place.
    private func encodeChannel(_ channel: DemoChannel, catalog: ChannelCatalog, font: String,
                               folder: String) throws -> CacheManifest.Channel {
        let started = Date()
        let partial = root.appendingPathComponent("partial-\(getpid())-\(channel.number)")
        var entry: CacheManifest.Channel
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            entry = try encode(channel, catalog: catalog, font: font, into: partial)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        entry.folder = folder
        entry.createdAt = started
        entry.encodeSeconds = Date().timeIntervalSince(started)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        pretty.dateEncodingStrategy = .iso8601
        try pretty.encode(entry).write(to: partial.appendingPathComponent("channel.json"), options: .atomic)
        let destination = root.appendingPathComponent(folder)
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.moveItem(at: partial, to: destination)
        return entry
    }

    private func encode(_ channel: DemoChannel, catalog: ChannelCatalog, font: String,
                        into directory: URL) throws -> CacheManifest.Channel {
        let recipe = EncodeRecipe(channel: channel, loopSeconds: catalog.loopSeconds,
                                  segmentSeconds: catalog.segmentSeconds, fontFile: font)
        let textDirectory = directory.appendingPathComponent("text")
        try FileManager.default.createDirectory(at: textDirectory, withIntermediateDirectories: true)
        for (name, text) in recipe.textFiles {
            try Data(text.utf8).write(to: textDirectory.appendingPathComponent(name))
        }
        let folders = VideoVariant.all.map(EncodeRecipe.videoDirectory)
        for folder in folders {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        var captionedVideo: URL?
        if !channel.captionTracks.isEmpty {
            let folder = directory.appendingPathComponent("captioned")
            try CaptionedChannel.encodeVideo(channel, loopSeconds: catalog.loopSeconds, segmentSeconds: catalog.segmentSeconds, into: folder)
            captionedVideo = folder
        }
        try runChecked("ffmpeg", recipe.arguments(outputDirectory: directory.path, textDirectory: textDirectory.path,
                                                  captionedVideo: captionedVideo?.path),
                       channel: channel.number)
        if let captionedVideo { try? FileManager.default.removeItem(at: captionedVideo) }
        try runChecked("ffmpeg", recipe.logoArguments(output: directory.appendingPathComponent("logo.png").path,
                                                      textDirectory: textDirectory.path),
                       channel: channel.number)

        var renditions: [String: [Double]] = [:]
        for folder in folders {
            renditions[folder] = try loopDurations(in: directory.appendingPathComponent(folder),
                                                   expected: catalog.loopSegments, segmentSeconds: catalog.segmentSeconds)
        }
        let first = directory.appendingPathComponent("1080p/0.ts")
        let videoStart = try startPTS(first, stream: "v:0")
        // Every muxed audio track starts together (one run, one muxer).
        let audioStarts = try channel.audio.indices.map { try startPTS(first, stream: "a:\($0)") }
        guard let earliest = audioStarts.min(), let latest = audioStarts.max(), latest - earliest <= 2 else {
            throw OriginError.badCache(path: directory.path, reason: "the audio tracks start at PTS \(audioStarts): out of sync")
        }
        return CacheManifest.Channel(number: channel.number, folder: "", createdAt: Date(), encodeSeconds: 0,
                                     videoStartPTS: videoStart, renditions: renditions)
    }

    private func runChecked(_ tool: String, _ arguments: [String], channel: Int) throws {
        let result = try Tools.run(tool, arguments)
        guard result.status == 0 else {
            throw OriginError.encodeFailed(channel: channel, command: Tools.commandLine(tool, arguments),
                                           output: String(result.output.suffix(4000)))
        }
    }

    /// Reads the segment durations ffmpeg's HLS muxer wrote, keeping the
    /// loop's segments. An AAC encoder's flush can leave one extra segment of
    /// a frame or two; it is dropped (the loop restart is a discontinuity).
    private func loopDurations(in folder: URL, expected: Int, segmentSeconds: Int) throws -> [Double] {
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let durations = playlist.split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",").first ?? "") }
        let tail = durations.dropFirst(expected)
        guard durations.count >= expected, tail.allSatisfy({ $0 < 0.1 }) else {
            throw OriginError.badCache(path: folder.path, reason:
                "expected \(expected) segments of \(segmentSeconds) s, ffmpeg wrote \(durations)")
        }
        for index in expected..<durations.count {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(index).ts"))
        }
        return Array(durations.prefix(expected))
    }

    private func startPTS(_ file: URL, stream: String) throws -> Int64 {
        let result = try Tools.run("ffprobe", ["-v", "error", "-select_streams", stream,
                                               "-show_entries", "stream=start_pts", "-of", "csv=p=0", file.path])
        // MPEG-TS lists the stream under its program too: the first value will do.
        let first = result.output.split(whereSeparator: \.isNewline).first { !$0.isEmpty }
        guard result.status == 0, let first, let value = Int64(first.trimmingCharacters(in: .whitespaces)) else {
            throw OriginError.badCache(path: file.path, reason: "ffprobe could not read its start PTS: \(result.output)")
        }
        return value
    }
}

/// An exclusive `flock` held until `unlock()`.
final class FileLock {
    private let fd: Int32

    init(path: String) throws {
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OriginError.badCache(path: path, reason: "cannot open lock file: \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw OriginError.badCache(path: path, reason: "cannot lock: \(reason)")
            }
        }
    }

    func unlock() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
