import CFFmpeg

/// A compressed packet read by the demuxer; owns its AVPacket.
public final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws {
        guard let pointer = av_packet_alloc() else { throw AVError(code: zapper_averror(ENOMEM), operation: "av_packet_alloc") }
        self.pointer = pointer
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    public var size: Int { Int(pointer.pointee.size) }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Presentation time in the stream's time base, or nil when unknown.
    public var pts: Int64? { pointer.pointee.pts == zapper_av_nopts_value() ? nil : pointer.pointee.pts }
}

/// A decoded picture or block of audio; owns its AVFrame.
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws {
        guard let pointer = av_frame_alloc() else { throw AVError(code: zapper_averror(ENOMEM), operation: "av_frame_alloc") }
        self.pointer = pointer
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    /// The picture's size in memory, about: the planes' rows times their strides.
    public var byteSize: Int {
        withUnsafeBytes(of: pointer.pointee.linesize) { strides in
            strides.bindMemory(to: Int32.self).prefix(4).enumerated().reduce(0) { total, plane in
                // Chroma planes (4:2:0) have half the rows.
                total + Int(plane.element) * (plane.offset == 0 ? height : (height + 1) / 2)
            }
        }
    }
    /// A picture's sample aspect ratio (a pixel's width over its height): 1 when not known.
    public var sampleAspect: Double {
        let ratio = pointer.pointee.sample_aspect_ratio
        return ratio.num > 0 && ratio.den > 0 ? Double(ratio.num) / Double(ratio.den) : 1
    }
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    public var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
    /// The best-effort presentation time in the stream's time base.
    public var pts: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        return value == zapper_av_nopts_value() ? nil : value
    }
    /// The pixel or sample format's FFmpeg name ("yuv420p", "fltp").
    public var formatName: String {
        if pointer.pointee.width > 0, let name = av_get_pix_fmt_name(AVPixelFormat(pointer.pointee.format)) {
            return String(cString: name)
        }
        if let name = av_get_sample_fmt_name(AVSampleFormat(pointer.pointee.format)) {
            return String(cString: name)
        }
        return "unknown"
    }
}
