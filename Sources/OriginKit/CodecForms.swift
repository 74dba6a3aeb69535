import Foundation

/// The origin's codec demos: channel `channel` is also offered in codecs
/// other than H.264 + AAC, each as one more rendition folder of the channel
/// (`/ch/N/hevc-ac3/index.m3u8`, a media playlist on the channel's live
/// timeline, MPEG-TS segments). They are made once from the channel's 240p
/// loop: HEVC (libx265) with AC-3, and the H.264 copied with MPEG-1 Layer II
/// (MP2) audio. Keyframes stay on the loop's segment boundaries, so each
/// form has the loop's segment count and durations.
public struct CodecForm: Sendable, Equatable {
    public let name: String
    public let videoCodec: String
    public let audioCodec: String
    let codecArguments: [String]
}

public enum CodecForms {
    public static let channel = 4
    static let source = "240p"

    public static let all: [CodecForm] = [
        CodecForm(name: "hevc-ac3", videoCodec: "hevc", audioCodec: "ac3",
                  codecArguments: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error",
                                   "-b:v", "300k", "-c:a", "ac3", "-b:a", "192k"]),
        CodecForm(name: "h264-mp2", videoCodec: "h264", audioCodec: "mp2",
                  codecArguments: ["-c:v", "copy", "-c:a", "mp2", "-b:a", "192k"]),
    ]

    /// The ffmpeg arguments making one form from the loop's TS files.
    static func arguments(_ form: CodecForm, inputs: [String], segmentSeconds: Int, output: URL) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
         "-i", "concat:" + inputs.joined(separator: "|"),
         "-map", "0:v:0", "-map", "0:a:0"]
            + form.codecArguments
            + ["-force_key_frames", "expr:gte(t,n_forced*\(segmentSeconds))", "-ac", "2", "-ar", "\(EncodeRecipe.sampleRate)",
               "-f", "hls", "-hls_time", "\(segmentSeconds)", "-hls_list_size", "0",
               "-hls_segment_filename", output.appendingPathComponent("%d.ts").path,
               output.appendingPathComponent("index.m3u8").path]
    }

    /// Each form's segment durations, by rendition name, making the forms
    /// this cache does not have yet.
    static func prepare(channelFolder: URL, loopSegments: Int, segmentSeconds: Int,
                        lockPath: String) throws -> [String: [Double]] {
        let inputs = (0..<loopSegments).map { channelFolder.appendingPathComponent("\(source)/\($0).ts").path }
        var durations: [String: [Double]] = [:]
        for form in all {
            durations[form.name] = try DerivedFolder.prepare(channelFolder.appendingPathComponent(form.name),
                                                             lockPath: lockPath) { partial in
                try DerivedFolder.ffmpeg(arguments(form, inputs: inputs, segmentSeconds: segmentSeconds, output: partial),
                                         channel: channel)
                return try DerivedFolder.segmentDurations(partial, expected: loopSegments)
            }
        }
        return durations
    }
}
