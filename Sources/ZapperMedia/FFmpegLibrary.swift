import CFFmpeg
import Foundation
import Synchronization

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

    /// How bad an FFmpeg message is.
    public enum LogLevel: Sendable {
        case error, warning
    }

    /// Sends FFmpeg's own log lines (warnings and errors; which it would print to stderr) to
    /// `say`, with what logged them ("mpegts", "h264") and without the trailing line end.
    /// Call once, before anything is opened.
    public static func routeLog(to say: @escaping @Sendable (LogLevel, _ component: String, _ message: String) -> Void) {
        FFmpegLogRoute.say.withLock { $0 = say }
        zapper_av_log_route({ level, component, message in
            guard let message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            let name = component.map { String(cString: $0) } ?? ""
            FFmpegLogRoute.say.withLock { $0 }?(level <= zapper_av_log_error() ? .error : .warning, name, text)
        }, zapper_av_log_warning())
    }
}

enum FFmpegLogRoute {
    static let say = Mutex<(@Sendable (FFmpegLibrary.LogLevel, String, String) -> Void)?>(nil)
}
