import CFFmpeg

/// What the system's FFmpeg libraries are and can do.
public enum FFmpegLibrary {
    /// e.g. "5.1.9-0+deb12u1".
    public static var version: String { String(cString: av_version_info()) }

    /// Whether libavcodec has a decoder for a codec name ("h264", "hevc", "aac", "ac3", "mp2").
    public static func canDecode(_ codec: String) -> Bool {
        avcodec_find_decoder_by_name(codec) != nil
    }

    /// Whether libavformat has a demuxer of that name ("mpegts", "mov").
    public static func canDemux(_ format: String) -> Bool {
        av_find_input_format(format) != nil
    }
}
