import Foundation

/// The origin's fMP4 demo (EXT-X-MAP): channel `channel` is also offered as
/// fragmented MP4 under `/ch/N/fmp4/master.m3u8`, the same variants with an
/// initialization section and `.m4s` media segments. They are made once from
/// the channel's cached MPEG-TS loop by ffmpeg's HLS muxer with
/// `-hls_segment_type fmp4` and `-c copy`: a remux (well under a second),
/// not another encode, so both forms share their pictures and keyframes.
/// Only the first audio track is carried (one audio track per fMP4 variant).
public enum FragmentedMP4 {
    public static let channel = 2
    public static let pathPrefix = "fmp4"
    public static let initFile = "init.mp4"
    static let folder = "fmp4"
    static let doneFile = "durations.json"

    /// The ffmpeg arguments remuxing a loop's TS files into one fMP4 rendition folder.
    static func arguments(inputs: [String], output: URL) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
         "-i", "concat:" + inputs.joined(separator: "|"),
         "-map", "0:v:0", "-map", "0:a:0", "-c", "copy", "-bsf:a", "aac_adtstoasc",
         "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
         "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", initFile,
         "-hls_segment_filename", output.appendingPathComponent("%d.m4s").path,
         output.appendingPathComponent("index.m3u8").path]
    }

    /// The fMP4 renditions of a channel's encode folder and their segment
    /// durations, remuxing them first if this cache has none yet.
    static func prepare(channelFolder: URL, loopSegments: Int, lockPath: String) throws -> [String: [Double]] {
        let target = channelFolder.appendingPathComponent(folder)
        if let done = try? read(target) { return done }
        let lock = try FileLock(path: lockPath)
        defer { lock.unlock() }
        if let done = try? read(target) { return done }
        let partial = channelFolder.appendingPathComponent("\(folder)-partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        var durations: [String: [Double]] = [:]
        do {
            for variant in VideoVariant.all {
                let name = EncodeRecipe.videoDirectory(variant)
                let output = partial.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
                let inputs = (0..<loopSegments).map { channelFolder.appendingPathComponent("\(name)/\($0).ts").path }
                let arguments = arguments(inputs: inputs, output: output)
                let result = try Tools.run("ffmpeg", arguments)
                guard result.status == 0 else {
                    throw OriginError.encodeFailed(channel: channel, command: Tools.commandLine("ffmpeg", arguments),
                                                   output: String(result.output.suffix(4000)))
                }
                durations[name] = try segmentDurations(output, expected: loopSegments)
            }
            try JSONEncoder().encode(durations).write(to: partial.appendingPathComponent(doneFile), options: .atomic)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: partial, to: target)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return durations
    }

    static func read(_ target: URL) throws -> [String: [Double]] {
        try JSONDecoder().decode([String: [Double]].self, from: Data(contentsOf: target.appendingPathComponent(doneFile)))
    }

    /// The loop's segments as the muxer cut them: one per TS segment, since
    /// every TS segment starts with a keyframe and `-hls_time` is shorter.
    static func segmentDurations(_ folder: URL, expected: Int) throws -> [Double] {
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let durations = playlist.split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",").first ?? "") }
        guard durations.count == expected else {
            throw OriginError.badCache(path: folder.path, reason: "expected \(expected) fMP4 segments, ffmpeg wrote \(durations)")
        }
        return durations
    }
}
