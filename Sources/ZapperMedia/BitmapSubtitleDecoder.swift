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
    /// A teletext stream's subtitle page (0x888); nil: DVB subtitles.
    public var teletextPage: Int? = nil
}

/// The entries of a teletext descriptor, as libavformat keeps them (two extradata bytes each:
/// the type and magazine, the page's two digits).
enum TeletextEntry {
    /// Those that are subtitle pages (type 2, or 5 for the hard of hearing), with their place.
    static func subtitlePages(_ extradata: [UInt8]) -> [(position: Int, page: Int, hearingImpaired: Bool)] {
        stride(from: 0, to: extradata.count - 1, by: 2).enumerated().compactMap { position, offset in
            let type = extradata[offset] >> 3, magazine = Int(extradata[offset] & 0x7)
            guard type == 2 || type == 5 else { return nil }
            return (position, (magazine == 0 ? 8 : magazine) << 8 | Int(extradata[offset + 1]), type == 5)
        }
    }
}

/// libavcodec's DVB subtitle decoder (`dvbsub`) on the packets of one subtitle stream:
/// each completed page as a `SubtitleBitmap` with its time in the stream (seconds) and,
/// when the page says so, its end. Palettes (native-endian ARGB) become premultiplied pixels.
public final class BitmapSubtitleDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var nextID = 0
    /// DVB's canvas unless a display definition segment gives another.
    public static let defaultCanvas = (width: 720, height: 576)

    /// A teletext page is drawn whole: its own size is the canvas (columns of 12 pixels, rows of 10).
    private let teletext: Bool

    /// `teletextPage`: for a teletext stream (libzvbi's decoder), the page whose subtitles are drawn.
    public init(_ parameters: CodecParameters, teletextPage: Int? = nil) throws {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no decoder for \(parameters.codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3")
        }
        self.context = context
        teletext = teletextPage != nil
        try AVError.check(avcodec_parameters_to_context(context, parameters.pointer), "avcodec_parameters_to_context")
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if let teletextPage {
            av_dict_set(&options, "txt_page", String(teletextPage, radix: 16), 0)
            context.pointee.pkt_timebase = AVRational(num: 1, den: 90_000)
        }
        try AVError.check(avcodec_open2(context, codec, &options), "avcodec_open2 (\(parameters.codecName))")
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
        var width = context!.pointee.width > 0 ? Int(context!.pointee.width) : Self.defaultCanvas.width
        var height = context!.pointee.height > 0 ? Int(context!.pointee.height) : Self.defaultCanvas.height
        var regions: [SubtitleBitmap.Region] = []
        for index in 0..<Int(min(subtitle.num_rects, UInt32(SubtitleBitmap.mostRegions))) {
            guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_BITMAP, let region = Self.region(rect.pointee) else { continue }
            regions.append(region)
        }
        if teletext, let page = regions.first {
            // The page's own size (its header row is chopped off above the rest, which keeps its place).
            width = page.x + page.width
            height = page.y + page.height
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
