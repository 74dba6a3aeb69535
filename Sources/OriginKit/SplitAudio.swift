import Foundation

/// The origin's separate-audio form: channels `channels` are also offered as
/// a master playlist (`/ch/N/split.m3u8`) whose variants carry only video and
/// whose audio languages are EXT-X-MEDIA renditions with their own media
/// playlists, as most large providers package live TV. Every folder is a
/// stream copy of the channel's loop (no re-encode): one video-only folder
/// per variant and one audio-only folder per language. `-copyts` with no
/// muxing delay keeps the loop's own timestamps, so the renditions line up
/// with each other (and with the muxed variants) as RFC 8216 requires.
public enum SplitAudio {
    public static let channels = [1, 8]
    public static let masterFile = "split.m3u8"
    static let videoVariants = ["240p", "720p"]

    public static func videoFolder(_ variant: String) -> String { "split-video-\(variant)" }
    public static func audioFolder(language: String) -> String { "split-audio-\(language)" }

    /// The ffmpeg arguments copying one stream (`map`, e.g. "0:v:0") of the loop into a folder of its own.
    static func arguments(map: String, inputs: [String], segmentSeconds: Int, output: URL) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
         "-i", "concat:" + inputs.joined(separator: "|"),
         "-map", map, "-c", "copy", "-copyts", "-muxdelay", "0", "-muxpreload", "0",
         "-f", "hls", "-hls_time", "\(segmentSeconds)", "-hls_list_size", "0",
         "-hls_segment_filename", output.appendingPathComponent("%d.ts").path,
         output.appendingPathComponent("index.m3u8").path]
    }

    /// Each folder's segment durations, by folder name, making those this cache does not have yet.
    static func prepare(channel: DemoChannel, channelFolder: URL, loopSegments: Int, segmentSeconds: Int,
                        lockPath: String) throws -> [String: [Double]] {
        func inputs(_ variant: String) -> [String] {
            (0..<loopSegments).map { channelFolder.appendingPathComponent("\(variant)/\($0).ts").path }
        }
        var folders: [(name: String, map: String, inputs: [String])] = videoVariants.map {
            (videoFolder($0), "0:v:0", inputs($0))
        }
        for (index, track) in channel.audio.enumerated() {
            folders.append((audioFolder(language: track.language), "0:a:\(index)", inputs(videoVariants[0])))
        }
        var durations: [String: [Double]] = [:]
        for folder in folders {
            durations[folder.name] = try DerivedFolder.prepare(channelFolder.appendingPathComponent(folder.name),
                                                               lockPath: lockPath) { partial in
                try DerivedFolder.ffmpeg(arguments(map: folder.map, inputs: folder.inputs, segmentSeconds: segmentSeconds,
                                                   output: partial), channel: channel.number)
                return try DerivedFolder.segmentDurations(partial, expected: loopSegments)
            }
        }
        return durations
    }
}
