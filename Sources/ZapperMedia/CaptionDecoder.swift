import CFFmpeg
import ZapperCore

/// libavcodec's closed-caption decoder (`ccaption_dec`, CEA-608) for one data
/// channel, in its real-time mode: each change of the screen (a pop-on caption
/// shown, a roll-up row, paint-on characters, an erase) comes out as it happens.
/// Fed the `cc_data` of each picture in display order. 708 is not decoded:
/// libavcodec 5.1 has no CEA-708 text decoder.
public final class CaptionDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var selector: CEA608Selector
    public let channel: CaptionChannel

    public init(_ channel: CaptionChannel) throws {
        guard case .cea608(let number) = channel else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "\(channel.instreamID): CEA-708 captions are not decoded")
        }
        self.channel = channel
        selector = CEA608Selector(number: number)
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_EIA_608) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no decoder for EIA-608 captions")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3")
        }
        self.context = context
        context.pointee.pkt_timebase = AVRational(num: 1, den: 1000)
        var options: OpaquePointer?
        av_dict_set(&options, "real_time", "1", 0)
        // The selector sends the chosen channel as field 1's.
        av_dict_set(&options, "data_field", "first", 0)
        defer { av_dict_free(&options) }
        try AVError.check(avcodec_open2(context, codec, &options), "avcodec_open2 (EIA-608 captions)")
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// The screens after one picture's `cc_data` (at `milliseconds`, a clock that
    /// runs on), oldest first: each the lines on screen, empty when it was cleared.
    public func decode(_ ccData: [UInt8], milliseconds: Int64) throws -> [[String]] {
        var selected = selector.select(ccData)
        // Even a picture without captions lets the decoder show roll-up and paint-on text due by now.
        if selected.isEmpty { selected = [0xFC, 0x80, 0x80] }
        guard let packet = av_packet_alloc() else { throw AVError(code: zapper_averror(ENOMEM), operation: "av_packet_alloc") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        try AVError.check(av_new_packet(packet, Int32(selected.count)), "av_new_packet")
        selected.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        }
        packet.pointee.pts = milliseconds
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try AVError.check(avcodec_decode_subtitle2(context, &subtitle, &got, packet), "avcodec_decode_subtitle2 (captions)")
        defer { avsubtitle_free(&subtitle) }
        guard got != 0, let rects = subtitle.rects else { return [] }
        var screens: [[String]] = []
        for index in 0..<Int(min(subtitle.num_rects, 16)) {
            guard let rect = rects[index], let ass = rect.pointee.ass else { continue }
            screens.append(CaptionText.lines(fromASS: String(cString: ass)))
        }
        return screens
    }

    /// Forgets the screen (a discontinuity, a new tune).
    public func flush() {
        avcodec_flush_buffers(context)
        selector = CEA608Selector(number: selector.number)
    }
}

extension Frame {
    /// The picture's closed-caption data (ATSC A/53 `cc_data` triplets), as the
    /// H.264 decoder exports it from the SEI; nil when it has none. Capped at 64 triplets.
    public var closedCaptionData: [UInt8]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_A53_CC), let data = side.pointee.data else { return nil }
        let size = min(Int(side.pointee.size), 64 * 3)
        guard size >= 3 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size - size % 3))
    }
}
