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
        try DerivedFolder.prepare(channelFolder.appendingPathComponent(folder), lockPath: lockPath) { partial in
            var durations: [String: [Double]] = [:]
            for variant in VideoVariant.all {
                let name = EncodeRecipe.videoDirectory(variant)
                let output = partial.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
                let inputs = (0..<loopSegments).map { channelFolder.appendingPathComponent("\(name)/\($0).ts").path }
                try DerivedFolder.ffmpeg(arguments(inputs: inputs, output: output), channel: channel)
                durations[name] = try DerivedFolder.segmentDurations(output, expected: loopSegments)
            }
            return durations
        }
    }
}
