import Foundation

/// What a finished encode left in the cache, written last so a folder with
/// a manifest is complete.
public struct CacheManifest: Codable, Sendable {
    public var recipe: String
    public var ffmpeg: String
    public var createdAt: Date
    public var encodeSeconds: Double
    public var channels: [Channel]

    public struct Channel: Codable, Sendable {
        public var number: Int
        /// The 90 kHz PTS of the loop's first video frame (for WebVTT's X-TIMESTAMP-MAP).
        public var videoStartPTS: Int64
        /// Segment durations per rendition folder ("1080p", "audio-de", …).
        public var renditions: [String: [Double]]
    }
}

/// The pre-encoded loops, made once with `ffmpeg` and reused by later runs.
/// A cache folder is named after the recipe, the catalog, the ffmpeg version
/// and the font, so a change to any of them encodes afresh. Concurrent
/// origins wait on a lock instead of encoding twice.
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
        public let directory: URL
        public let manifest: CacheManifest
        public let reused: Bool
    }

    /// Returns the cache folder for the catalog, encoding it first if needed.
    public func prepare(catalog: ChannelCatalog, log: @Sendable (String) -> Void) throws -> Prepared {
        let ffmpegVersion = try Tools.run("ffmpeg", ["-version"]).output
            .split(separator: "\n").first.map(String.init) ?? "unknown"
        let font = try Tools.boldFont()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let identity = try encoder.encode(catalog) + Data("\(EncodeRecipe.version)|\(ffmpegVersion)|\(font)".utf8)
        let directory = root.appendingPathComponent(fnv1a(identity))
        let manifestURL = directory.appendingPathComponent("manifest.json")

        if let manifest = try? readManifest(manifestURL) {
            return Prepared(directory: directory, manifest: manifest, reused: true)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let lock = try FileLock(path: root.appendingPathComponent(".lock").path)
        defer { lock.unlock() }
        // Another origin may have finished the encode while we waited.
        if let manifest = try? readManifest(manifestURL) {
            return Prepared(directory: directory, manifest: manifest, reused: true)
        }

        // Under the lock, any partial folder is left over from an encode that died.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasPrefix("partial-") {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
        let started = Date()
        let partial = root.appendingPathComponent("partial-\(getpid())")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        var entries: [CacheManifest.Channel] = []
        do {
            for (index, channel) in catalog.channels.enumerated() {
                log("encoding channel \(channel.number) \"\(channel.name)\" (\(index + 1) of \(catalog.channels.count))…")
                entries.append(try encode(channel, catalog: catalog, font: font,
                                          into: partial.appendingPathComponent("ch\(channel.number)")))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let manifest = CacheManifest(recipe: EncodeRecipe.version, ffmpeg: ffmpegVersion, createdAt: started,
                                     encodeSeconds: Date().timeIntervalSince(started), channels: entries)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        pretty.dateEncodingStrategy = .iso8601
        try pretty.encode(manifest).write(to: partial.appendingPathComponent("manifest.json"), options: .atomic)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.moveItem(at: partial, to: directory)
        return Prepared(directory: directory, manifest: manifest, reused: false)
    }

    private func readManifest(_ url: URL) throws -> CacheManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(CacheManifest.self, from: Data(contentsOf: url))
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
        var folders = VideoVariant.all.map(EncodeRecipe.videoDirectory)
        folders += channel.alternateAudio.map { EncodeRecipe.audioDirectory(language: $0.language) }
        for folder in folders {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        try runChecked("ffmpeg", recipe.arguments(outputDirectory: directory.path, textDirectory: textDirectory.path),
                       channel: channel.number)
        try runChecked("ffmpeg", recipe.logoArguments(output: directory.appendingPathComponent("logo.png").path,
                                                      textDirectory: textDirectory.path),
                       channel: channel.number)

        var renditions: [String: [Double]] = [:]
        for folder in folders {
            renditions[folder] = try loopDurations(in: directory.appendingPathComponent(folder),
                                                   expected: catalog.loopSegments, segmentSeconds: catalog.segmentSeconds)
        }
        let videoStart = try startPTS(directory.appendingPathComponent("1080p/0.ts"), stream: "v:0")
        let mainAudioStart = try startPTS(directory.appendingPathComponent("1080p/0.ts"), stream: "a:0")
        for track in channel.alternateAudio {
            let folder = EncodeRecipe.audioDirectory(language: track.language)
            let start = try startPTS(directory.appendingPathComponent("\(folder)/0.ts"), stream: "a:0")
            guard abs(start - mainAudioStart) <= 2 else {
                throw OriginError.badCache(path: directory.path, reason:
                    "\(folder) starts at PTS \(start) but the muxed audio at \(mainAudioStart): renditions would be out of sync")
            }
        }
        return CacheManifest.Channel(number: channel.number, videoStartPTS: videoStart, renditions: renditions)
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
