import CFFmpeg
import Glibc

/// A libavcodec decoder for one stream. Runs on a decode thread; a tune
/// change drops it (or flushes it) rather than waiting for it.
public final class Decoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    public let kind: MediaKind
    /// As asked: 0 lets FFmpeg choose (frame threads, one per core and one more).
    public let threads: Int
    /// Wall time spent in `send` and `receive` so far, in seconds: with one thread, the decoding itself.
    public private(set) var busySeconds = 0.0
    /// The stream's sample aspect ratio, for pictures whose own bitstream gives none.
    private let streamSampleAspect: AVRational

    public init(_ parameters: CodecParameters, threads: Int = 0) throws {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no decoder for \(parameters.codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3")
        }
        self.context = context
        kind = parameters.kind
        self.threads = threads
        streamSampleAspect = parameters.pointer.pointee.sample_aspect_ratio
        try AVError.check(avcodec_parameters_to_context(context, parameters.pointer), "avcodec_parameters_to_context")
        context.pointee.thread_count = Int32(threads)
        // A stream may claim any size: a picture larger than 4K is refused by the decoder
        // instead of costing a gigabyte of reference frames.
        context.pointee.max_pixels = Self.maximumPixels
        try AVError.check(avcodec_open2(context, codec, nil), "avcodec_open2 (\(parameters.codecName))")
    }

    /// The largest picture decoded (3840 x 2160).
    public static let maximumPixels: Int64 = 3840 * 2160

    deinit {
        avcodec_free_context(&context)
    }

    /// Hands a packet to the decoder; nil drains it at the end of a stream.
    public func send(_ packet: Packet?) throws {
        let started = Self.now()
        let status = avcodec_send_packet(context, packet?.pointer)
        busySeconds += Self.now() - started
        // EAGAIN: frames must be received first; EOF: already drained.
        if status == zapper_averror(EAGAIN) || status == zapper_averror_eof() { return }
        try AVError.check(status, "avcodec_send_packet")
    }

    /// The next decoded frame, or nil when the decoder needs more input.
    public func receive() throws -> Frame? {
        let frame = try Frame()
        let started = Self.now()
        let status = avcodec_receive_frame(context, frame.pointer)
        busySeconds += Self.now() - started
        if status == zapper_averror(EAGAIN) || status == zapper_averror_eof() { return nil }
        try AVError.check(status, "avcodec_receive_frame")
        if kind == .video, frame.pointer.pointee.sample_aspect_ratio.num <= 0 {
            frame.pointer.pointee.sample_aspect_ratio = streamSampleAspect
        }
        return frame
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Forgets buffered frames (a discontinuity, or a flush by serial).
    public func flush() {
        avcodec_flush_buffers(context)
    }
}
