import CFFmpeg

/// What a stream is, as learned by probing: kept per channel so a re-tune
/// opens decoders at once instead of probing again.
public final class CodecParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>
    /// The MPEG-TS PID (AVStream.id) the parameters belong to.
    public let streamID: Int32

    init(copying source: UnsafePointer<AVCodecParameters>, streamID: Int32) throws {
        guard let pointer = avcodec_parameters_alloc() else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_parameters_alloc")
        }
        self.pointer = pointer
        self.streamID = streamID
        do {
            try AVError.check(avcodec_parameters_copy(pointer, source), "avcodec_parameters_copy")
        } catch {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = pointer
            avcodec_parameters_free(&owned)
            throw error
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&owned)
    }

    public var kind: MediaKind { MediaKind(pointer.pointee.codec_type) }
    public var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }
    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
}

public enum MediaKind: Sendable, Equatable {
    case video, audio, subtitle, other

    init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        default: self = .other
        }
    }
}
