import Foundation

/// A folder made once from a channel's cached loop by another ffmpeg run
/// (FragmentedMP4's remux, CodecForms' transcodes), under the cache's lock:
/// built in a partial folder whose done file (the segment durations) is
/// written last, then moved into place. Later runs read the done file.
enum DerivedFolder {
    static let doneFile = "durations.json"

    static func prepare<Durations: Codable>(_ target: URL, lockPath: String,
                                            build: (_ partial: URL) throws -> Durations) throws -> Durations {
        if let done = try? read(target, as: Durations.self) { return done }
        let lock = try FileLock(path: lockPath)
        defer { lock.unlock() }
        if let done = try? read(target, as: Durations.self) { return done }
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent("\(target.lastPathComponent)-partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            let durations = try build(partial)
            try JSONEncoder().encode(durations).write(to: partial.appendingPathComponent(doneFile), options: .atomic)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: partial, to: target)
            return durations
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    static func read<Durations: Codable>(_ target: URL, as type: Durations.Type) throws -> Durations {
        try JSONDecoder().decode(type, from: Data(contentsOf: target.appendingPathComponent(doneFile)))
    }

    /// Runs ffmpeg for channel `channel`, failing with its command line and output.
    static func ffmpeg(_ arguments: [String], channel: Int) throws {
        let result = try Tools.run("ffmpeg", arguments)
        guard result.status == 0 else {
            throw OriginError.encodeFailed(channel: channel, command: Tools.commandLine("ffmpeg", arguments),
                                           output: String(result.output.suffix(4000)))
        }
    }

    /// The loop's segments as ffmpeg's HLS muxer cut them into `folder`: one
    /// per loop segment, since every loop segment starts with a keyframe. An
    /// audio encoder's flush may leave one more of a frame or two: dropped.
    static func segmentDurations(_ folder: URL, expected: Int) throws -> [Double] {
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let durations = playlist.split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",").first ?? "") }
        guard durations.count >= expected, durations.dropFirst(expected).allSatisfy({ $0 < 0.1 }) else {
            throw OriginError.badCache(path: folder.path, reason: "expected \(expected) segments, ffmpeg wrote \(durations)")
        }
        return Array(durations.prefix(expected))
    }
}
