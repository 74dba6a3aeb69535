import CFFmpeg
import Foundation
import ZapperCore

/// What `DVBSubtitleWriter` writes: pages of one subtitle stream shown from `start` to `end`:
/// DVB subtitles, each page a grey bitmap (text drawn white on black by ffmpeg) on the 720x576
/// canvas; or, with `teletextPage`, teletext subtitles, each page its `text` (one or two rows).
public struct DVBSubtitleJob: Codable, Sendable, Equatable {
    public struct Page: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var x: Int?, y: Int?, width: Int?, height: Int?
        /// One grey byte a pixel, width x height (a file of ffmpeg's `-pix_fmt gray`).
        public var bitmap: String?
        /// A teletext page's rows, a line each.
        public var text: String?
    }

    /// Teletext subtitles on this page (hex as teletext numbers them: 0x888), not DVB subtitles.
    public var teletextPage: Int?

    /// The loop's first picture's 90 kHz time: page times count from it.
    public var startPTS: Int64
    public var language: String
    public var pages: [Page]
    /// Only what falls from `from` to before `to` (seconds, as page times) is written: one
    /// segment's part of the stream (nil: all of it).
    public var from: Double?
    public var to: Double?
}

extension DVBSubtitleJob {
    /// What is written, in order: each page at its start and a clear screen (nil) at its end, those
    /// from `from` to before `to`. A part of the stream begins with what shows at its start (as a
    /// broadcaster's repeated pages let a receiver that tunes in mid-page show it): the page, or a
    /// clear screen. Times are 90 kHz from `startPTS`.
    public func events() -> [(pts: Int64, page: Page?)] {
        func pts(_ time: Double) -> Int64 { startPTS + Int64(time * 90_000) }
        var events: [(pts: Int64, page: Page?)] = []
        if let from {
            if let page = pages.first(where: { $0.start <= from && from < $0.end }) {
                events.append((pts(from), page))
            } else if !pages.contains(where: { $0.start == from || $0.end == from }) {
                events.append((pts(from), nil))
            }
        }
        func wanted(_ time: Double) -> Bool { time >= (from ?? -.infinity) && time < (to ?? .infinity) }
        for page in pages.sorted(by: { $0.start < $1.start }) {
            if wanted(page.start) { events.append((pts(page.start), page)) }
            if wanted(page.end) { events.append((pts(page.end), nil)) }
        }
        return events
    }
}

/// Writes a DVB subtitle stream (libavcodec's `dvbsub` encoder) into an MPEG-TS file of its
/// own, for ffmpeg to mux beside a channel's picture and sound: each page a region of four
/// colours (clear, white, black, grey: the grey bitmap's light pixels white, its mid ones
/// grey, the rest clear) and a page with no region at its end, which clears the screen.
public enum DVBSubtitleWriter {
    public static let canvas = (width: 720, height: 576)

    public static func write(_ job: DVBSubtitleJob, to path: String) throws {
        if let page = job.teletextPage { return try TeletextWriter.write(job, page: page, to: path) }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_DVB_SUBTITLE) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no dvbsub encoder in this FFmpeg")
        }
        var context = avcodec_alloc_context3(codec)
        guard let encoder = context else { throw AVError(code: zapper_averror(ENOMEM), operation: "avcodec_alloc_context3") }
        defer { avcodec_free_context(&context) }
        encoder.pointee.width = Int32(canvas.width)
        encoder.pointee.height = Int32(canvas.height)
        encoder.pointee.time_base = AVRational(num: 1, den: 90_000)
        try AVError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2 (dvbsub)")
        let output = try OutputFile(path: path, format: "mpegts")
        let stream = try output.addStream(encoder, language: job.language)
        try output.writeHeader()
        for (pts, page) in job.events() {
            try encode(encoder, output: output, stream: stream, pts: pts, region: try page.map(region))
        }
        try output.finish()
    }

    /// A page's bitmap as the four colours' indexes, checked against the canvas.
    private static func region(_ page: DVBSubtitleJob.Page) throws -> (x: Int, y: Int, width: Int, height: Int, indexes: [UInt8]) {
        guard let file = page.bitmap, let x = page.x, let y = page.y, let width = page.width, let height = page.height else {
            throw AVError(code: zapper_averror(EINVAL), operation: "a DVB subtitle page without its bitmap")
        }
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        guard width > 0, height > 0, pixels.count == width * height, x >= 0, y >= 0, x + width <= canvas.width, y + height <= canvas.height else {
            throw AVError(code: zapper_averror(EINVAL), operation: "subtitle page \(file): \(width)x\(height) at \(x),\(y)")
        }
        return (x, y, width, height, pixels.map { $0 > 170 ? UInt8(1) : $0 > 60 ? UInt8(3) : UInt8(0) })
    }

    /// One page: `region` shown (nil: a page with none, which clears what showed).
    private static func encode(_ encoder: UnsafeMutablePointer<AVCodecContext>, output: OutputFile, stream: Int32, pts: Int64,
                               region: (x: Int, y: Int, width: Int, height: Int, indexes: [UInt8])?) throws {
        var subtitle = AVSubtitle()
        subtitle.pts = av_rescale_q(pts, AVRational(num: 1, den: 90_000), AVRational(num: 1, den: Int32(AV_TIME_BASE)))
        subtitle.end_display_time = region == nil ? 0 : 60_000
        var rect = AVSubtitleRect()
        var rects: [UnsafeMutablePointer<AVSubtitleRect>?] = []
        // The palette: clear, white, black, grey (ARGB, as libavcodec's RGB32).
        var palette: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0xFF00_0000, 0xFF80_8080]
        var indexes = region?.indexes ?? []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let size: Int32 = try indexes.withUnsafeMutableBufferPointer { pixels in
            try palette.withUnsafeMutableBytes { colours in
                if let region {
                    rect.x = Int32(region.x)
                    rect.y = Int32(region.y)
                    rect.w = Int32(region.width)
                    rect.h = Int32(region.height)
                    rect.nb_colors = 4
                    rect.type = SUBTITLE_BITMAP
                    rect.data.0 = pixels.baseAddress
                    rect.data.1 = colours.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    rect.linesize.0 = Int32(region.width)
                    rect.linesize.1 = 4 * 4
                }
                return try withUnsafeMutablePointer(to: &rect) { rectPointer in
                    rects = region == nil ? [] : [rectPointer]
                    return try rects.withUnsafeMutableBufferPointer { list in
                        subtitle.num_rects = UInt32(list.count)
                        subtitle.rects = list.count == 0 ? nil : list.baseAddress
                        let written = avcodec_encode_subtitle(encoder, &buffer, Int32(buffer.count), &subtitle)
                        return try AVError.check(written, "avcodec_encode_subtitle")
                    }
                }
            }
        }
        let packet = try Packet()
        try AVError.check(av_new_packet(packet.pointer, size), "av_new_packet")
        buffer.withUnsafeBytes { packet.pointer.pointee.data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: Int(size)) }
        packet.pointer.pointee.pts = av_rescale_q(pts, AVRational(num: 1, den: 90_000), output.timeBase(stream: stream))
        packet.pointer.pointee.dts = packet.pointer.pointee.pts
        packet.pointer.pointee.stream_index = stream
        try output.write(packet)
    }
}
