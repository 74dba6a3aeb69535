import CFFmpeg
import ZapperCore

/// One subtitle stream of a TS, as the demuxer lists it.
public struct SubtitleStream: Sendable, Equatable {
    public let index: Int
    public let streamID: Int32
    public let language: String?
    public let codecName: String
    /// The PMT's subtitling type says hard of hearing.
    public let hearingImpaired: Bool
}

/// libavcodec's DVB subtitle decoder (`dvbsub`) on the packets of one subtitle stream:
/// each completed page as a `SubtitleBitmap` with its time in the stream (seconds) and,
/// when the page says so, its end. Palettes (native-endian ARGB) become premultiplied pixels.
public final class BitmapSubtitleDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var nextID = 0
    /// DVB's canvas unless a display definition segment gives another.
    public static let defaultCanvas = (width: 720, height: 576)

    public init(_ parameters: CodecParameters) throws {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no decoder for \(parameters.codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3")
        }
        self.context = context
        try AVError.check(avcodec_parameters_to_context(context, parameters.pointer), "avcodec_parameters_to_context")
        try AVError.check(avcodec_open2(context, codec, nil), "avcodec_open2 (\(parameters.codecName))")
    }

    deinit { avcodec_free_context(&context) }

    /// The page `packet` completes (nil: none yet), timed in the stream's `timeBase`.
    public func decode(_ packet: Packet, timeBase: (numerator: Int32, denominator: Int32)) throws -> SubtitleBitmapQueue.Timed? {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try AVError.check(avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer), "avcodec_decode_subtitle2")
        guard got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        guard let pts = packet.pts, let seconds = StreamTime.seconds(pts, numerator: timeBase.numerator, denominator: timeBase.denominator) else {
            return nil
        }
        let start = seconds + Double(subtitle.start_display_time) / 1000
        let end = subtitle.end_display_time > subtitle.start_display_time && subtitle.end_display_time < 60_000
            ? seconds + Double(subtitle.end_display_time) / 1000 : nil
        let width = context!.pointee.width > 0 ? Int(context!.pointee.width) : Self.defaultCanvas.width
        let height = context!.pointee.height > 0 ? Int(context!.pointee.height) : Self.defaultCanvas.height
        var regions: [SubtitleBitmap.Region] = []
        for index in 0..<Int(min(subtitle.num_rects, UInt32(SubtitleBitmap.mostRegions))) {
            guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_BITMAP, let region = Self.region(rect.pointee) else { continue }
            regions.append(region)
        }
        nextID += 1
        guard let bitmap = SubtitleBitmap(id: nextID, canvasWidth: width, canvasHeight: height, regions: regions) else { return nil }
        return SubtitleBitmapQueue.Timed(start: start, end: end, bitmap: bitmap)
    }

    /// A rect's indexed pixels through its palette, premultiplied; nil for a rect no bitmap has.
    private static func region(_ rect: AVSubtitleRect) -> SubtitleBitmap.Region? {
        let (width, height, colours) = (Int(rect.w), Int(rect.h), Int(rect.nb_colors))
        guard width > 0, height > 0, width <= SubtitleBitmap.largestCanvas.width, height <= SubtitleBitmap.largestCanvas.height,
              (1...256).contains(colours), let indexes = rect.data.0, let paletteBytes = rect.data.1, rect.linesize.0 >= rect.w else { return nil }
        let palette = UnsafeRawPointer(paletteBytes).assumingMemoryBound(to: UInt32.self)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let stride = Int(rect.linesize.0)
        for y in 0..<height {
            for x in 0..<width {
                let entry = Int(indexes[y * stride + x])
                guard entry < colours else { continue }
                let argb = palette[entry]
                let alpha = (argb >> 24) & 0xFF
                let out = (y * width + x) * 4
                pixels[out] = UInt8(((argb & 0xFF) * alpha + 127) / 255)
                pixels[out + 1] = UInt8((((argb >> 8) & 0xFF) * alpha + 127) / 255)
                pixels[out + 2] = UInt8((((argb >> 16) & 0xFF) * alpha + 127) / 255)
                pixels[out + 3] = UInt8(alpha)
            }
        }
        return SubtitleBitmap.Region(x: Int(rect.x), y: Int(rect.y), width: width, height: height, pixels: pixels)
    }
}
