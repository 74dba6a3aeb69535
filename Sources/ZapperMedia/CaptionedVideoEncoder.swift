import CFFmpeg
import ZapperCore

/// Encodes a picture of one colour (with a bar moving across its top half) with
/// libx264, each picture carrying its CEA-608 captions (and CEA-708 service 1's) as A/53 side data,
/// which libx264 writes into the H.264 SEI (its `a53cc` option), and muxes it
/// into an MPEG-TS file with libavformat: the video of the demo captions channel.
public struct CaptionedVideoJob: Codable, Sendable, Equatable {
    public struct Variant: Codable, Sendable, Equatable {
        public var name: String
        public var width: Int
        public var height: Int
        public var kbps: Int
        /// H.264 level, e.g. 40 for 4.0.
        public var level: Int

        public init(name: String, width: Int, height: Int, kbps: Int, level: Int) {
            self.name = name
            self.width = width
            self.height = height
            self.kbps = kbps
            self.level = level
        }
    }

    /// The background colour, red, green, blue.
    public var red: Int
    public var green: Int
    public var blue: Int
    public var seconds: Int
    public var frameRate: Int
    /// Pictures between key frames.
    public var gop: Int
    public var variants: [Variant]
    public var captions: [CEA608PopOnWriter.Caption]
    /// CEA-708 service 1's captions (nil or empty: no 708 data).
    public var services: [CEA708PopOnWriter.Caption]?

    public init(red: Int, green: Int, blue: Int, seconds: Int, frameRate: Int, gop: Int, variants: [Variant],
                captions: [CEA608PopOnWriter.Caption], services: [CEA708PopOnWriter.Caption]? = nil) {
        self.services = services
        (self.red, self.green, self.blue) = (red, green, blue)
        self.seconds = seconds
        self.frameRate = frameRate
        self.gop = gop
        self.variants = variants
        self.captions = captions
    }
}

public enum CaptionedVideoEncoder {
    /// Writes `variant` of `job` to the MPEG-TS file at `path`.
    public static func encode(_ job: CaptionedVideoJob, variant: CaptionedVideoJob.Variant, to path: String) throws {
        guard (1...120).contains(job.frameRate), (1...3600).contains(job.seconds), job.gop > 0 else {
            throw AVError(code: zapper_averror(EINVAL), operation: "a captioned encode of \(job.seconds) s at \(job.frameRate) fps")
        }
        let count = job.seconds * job.frameRate
        let pairs = try CEA608PopOnWriter.pairs(for: job.captions, frameRate: job.frameRate, count: count)
        let service = try CEA708PopOnWriter.triplets(for: job.services ?? [], frameRate: job.frameRate, count: count)
        let output = try OutputFile(path: path, format: "mpegts")
        let encoder = try H264Encoder(variant: variant, frameRate: job.frameRate, gop: job.gop)
        let stream = try output.addStream(encoder)
        try output.writeHeader()
        for index in 0..<count {
            let frame = try Frame.solid(width: variant.width, height: variant.height, red: job.red, green: job.green, blue: job.blue)
            drawBar(in: frame, at: index, of: count)
            frame.pointer.pointee.pts = Int64(index)
            if index % job.gop == 0 { frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_I }
            let ccData = CEA608PopOnWriter.ccData(pairs[index]) + service[index]
            guard let side = av_frame_new_side_data(frame.pointer, AV_FRAME_DATA_A53_CC, ccData.count) else {
                throw AVError(code: zapper_averror(ENOMEM), operation: "av_frame_new_side_data (A/53 captions)")
            }
            ccData.withUnsafeBytes { bytes in
                side.pointee.data.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
            try encoder.send(frame)
            try drain(encoder, into: output, stream: stream)
        }
        try encoder.send(nil)
        try drain(encoder, into: output, stream: stream)
        try output.finish()
    }

    private static func drain(_ encoder: H264Encoder, into output: OutputFile, stream: Int32) throws {
        while let packet = try encoder.receive() {
            av_packet_rescale_ts(packet.pointer, encoder.timeBase, output.timeBase(stream: stream))
            packet.pointer.pointee.stream_index = stream
            try output.write(packet)
        }
    }

    /// A light bar crossing the upper half once per loop, so the picture moves.
    private static func drawBar(in frame: Frame, at index: Int, of count: Int) {
        let width = frame.width, height = frame.height
        let barWidth = max(width / 16, 2)
        let x = (width - barWidth) * index / max(count - 1, 1)
        let stride = Int(frame.pointer.pointee.linesize.0)
        guard let luma = frame.pointer.pointee.data.0 else { return }
        for row in (height / 8)..<(height * 3 / 8) {
            (luma + row * stride + x).update(repeating: 200, count: barWidth)
        }
    }
}

/// A libx264 encoder with A/53 captions on (`a53cc`), key frames every `gop` pictures.
final class H264Encoder {
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    let timeBase: AVRational

    init(variant: CaptionedVideoJob.Variant, frameRate: Int, gop: Int) throws {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no libx264 encoder in this libavcodec")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3")
        }
        self.context = context
        timeBase = AVRational(num: 1, den: Int32(frameRate))
        context.pointee.width = Int32(variant.width)
        context.pointee.height = Int32(variant.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = timeBase
        context.pointee.framerate = AVRational(num: Int32(frameRate), den: 1)
        context.pointee.gop_size = Int32(gop)
        context.pointee.keyint_min = Int32(gop)
        context.pointee.bit_rate = Int64(variant.kbps) * 1000
        context.pointee.rc_max_rate = Int64(variant.kbps) * 1200
        context.pointee.rc_buffer_size = Int32(variant.kbps * 1200)
        context.pointee.profile = FF_PROFILE_H264_HIGH
        context.pointee.level = Int32(variant.level)
        var options: OpaquePointer?
        av_dict_set(&options, "preset", "veryfast", 0)
        av_dict_set(&options, "a53cc", "1", 0)
        av_dict_set(&options, "x264-params", "scenecut=0", 0)
        defer { av_dict_free(&options) }
        try AVError.check(avcodec_open2(context, codec, &options), "avcodec_open2 (libx264)")
    }

    deinit { avcodec_free_context(&context) }

    func send(_ frame: Frame?) throws {
        try AVError.check(avcodec_send_frame(context, frame?.pointer), "avcodec_send_frame (libx264)")
    }

    func receive() throws -> Packet? {
        let packet = try Packet()
        let status = avcodec_receive_packet(context, packet.pointer)
        if status == zapper_averror(EAGAIN) || status == zapper_averror_eof() { return nil }
        try AVError.check(status, "avcodec_receive_packet (libx264)")
        return packet
    }
}

/// A file written by a libavformat muxer.
final class OutputFile {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var opened = false
    private var headerWritten = false

    init(path: String, format: String) throws {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try AVError.check(avformat_alloc_output_context2(&context, nil, format, path), "avformat_alloc_output_context2 (\(format))")
        self.context = context
        try AVError.check(avio_open(&self.context!.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open (\(path))")
        opened = true
    }

    deinit {
        if let context {
            if opened { avio_closep(&context.pointee.pb) }
            avformat_free_context(context)
        }
    }

    /// A stream for the encoder's packets; its index.
    func addStream(_ encoder: H264Encoder) throws -> Int32 {
        try addStream(encoder.context!, timeBase: encoder.timeBase, language: nil)
    }

    /// A stream for an encoder's packets, in `language` (ISO 639-2) when given; its index.
    func addStream(_ encoder: UnsafeMutablePointer<AVCodecContext>, timeBase: AVRational? = nil, language: String?) throws -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avformat_new_stream")
        }
        try AVError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        stream.pointee.time_base = timeBase ?? encoder.pointee.time_base
        if let language { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
        return stream.pointee.index
    }

    /// A stream of packets made by hand (no encoder): its codec, and `extradata` for the muxer.
    func addStream(codec: AVCodecID, type: AVMediaType, timeBase: AVRational, language: String?, extradata: [UInt8]) throws -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avformat_new_stream")
        }
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = type
        parameters.pointee.codec_id = codec
        if !extradata.isEmpty {
            guard let bytes = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
                throw AVError(code: zapper_averror(ENOMEM), operation: "av_mallocz (extradata)")
            }
            bytes.update(from: extradata, count: extradata.count)
            parameters.pointee.extradata = bytes
            parameters.pointee.extradata_size = Int32(extradata.count)
        }
        stream.pointee.time_base = timeBase
        if let language { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
        return stream.pointee.index
    }

    func writeHeader() throws {
        try AVError.check(avformat_write_header(context, nil), "avformat_write_header")
        headerWritten = true
    }

    func timeBase(stream: Int32) -> AVRational { context!.pointee.streams[Int(stream)]!.pointee.time_base }

    func write(_ packet: Packet) throws {
        try AVError.check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame")
    }

    func finish() throws {
        if headerWritten { try AVError.check(av_write_trailer(context), "av_write_trailer") }
        headerWritten = false
        if opened { try AVError.check(avio_closep(&context!.pointee.pb), "avio_closep") }
        opened = false
    }
}
