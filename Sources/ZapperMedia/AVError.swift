import CFFmpeg
import ZapperCore

/// A negative libav* return code, with FFmpeg's own message.
public struct AVError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    /// What was being done, e.g. "avformat_open_input".
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    public var message: String {
        var buffer = [CChar](repeating: 0, count: Int(zapper_av_error_max_string_size()))
        if av_strerror(code, &buffer, buffer.count) < 0 {
            return "unknown error \(code)"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var isEndOfFile: Bool { code == zapper_averror_eof() }
    public var isTryAgain: Bool { code == zapper_averror(EAGAIN) }
    public var isInvalidData: Bool { code == zapper_averror_invaliddata() }

    public var description: String { "\(operation): \(message)" }

    /// Returns a non-negative code, throws for a negative one.
    @discardableResult
    public static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
        guard code >= 0 else { throw AVError(code: code, operation: operation()) }
        return code
    }
}

extension AVError: PlaybackFailureConvertible {
    /// The demuxer and decoders read bytes already fetched: what fails there is the media itself.
    public var playbackFailure: PlaybackFailure { PlaybackFailure(.decode, description) }
}
