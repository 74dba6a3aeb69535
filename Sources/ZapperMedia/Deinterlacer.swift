import CFFmpeg
import Glibc

/// Decoded pictures through libavfilter's deinterlacer (buffer → bwdif or yadif →
/// buffersink), on the decode thread that decoded them.
///
/// - Pictures flagged interlaced are deinterlaced; progressive ones of the same stream pass
///   untouched (`deint=interlaced`), so a stream that mixes both is shown as it is.
/// - At field rate each interlaced picture gives two (1080i25 plays as 50 a second), at
///   frame rate one. The field order comes from each picture (`parity=auto`).
/// - Out come pictures with the filter's own timestamps, in `timeBase` (the stream's halved).
///   The filter holds one picture back (it looks at the next to make the current one's
///   second field): `drain` gives the last ones at the end of a stream or a discontinuity.
/// - The graph is made for the first picture and made again when the size, pixel format,
///   sample aspect ratio or time base change; `reset` forgets it (a flip, a seek).
public final class Deinterlacer {
    public enum Filter: String, Sendable, CaseIterable {
        case bwdif, yadif
    }

    public enum Rate: Sendable, Equatable {
        /// One picture per field (the TV's way).
        case field
        /// One picture per frame (half the work).
        case frame
    }

    public let filter: Filter
    public private(set) var rate: Rate
    /// Wall time spent in the filter so far, in seconds.
    public private(set) var busySeconds = 0.0
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var key: Key?

    private struct Key: Equatable {
        var width: Int32, height: Int32, format: Int32
        var sar: (Int32, Int32), timeBase: (Int32, Int32)
        static func == (a: Key, b: Key) -> Bool {
            a.width == b.width && a.height == b.height && a.format == b.format && a.sar == b.sar && a.timeBase == b.timeBase
        }
    }

    public init(filter: Filter = .bwdif, rate: Rate = .field) {
        self.filter = filter
        self.rate = rate
    }

    deinit { avfilter_graph_free(&graph) }

    /// The time base of the pictures that come out (valid once a picture went in).
    public private(set) var timeBase: (numerator: Int32, denominator: Int32) = (1, 90_000)

    /// Whether `frame` is a picture coded as fields.
    public static func isInterlaced(_ frame: Frame) -> Bool { frame.pointer.pointee.interlaced_frame != 0 }

    /// Field or frame rate from the next picture on (the graph is made again; the picture it
    /// held is dropped: one frame, at a moment the box is behind anyway).
    public func setRate(_ rate: Rate) {
        guard rate != self.rate else { return }
        self.rate = rate
        reset()
    }

    /// Forgets the graph and the picture it holds.
    public func reset() {
        avfilter_graph_free(&graph)
        source = nil
        sink = nil
        key = nil
    }

    /// The pictures that come out for `frame` (in the stream's `timeBase`): none, one or two.
    public func push(_ frame: Frame, timeBase stream: (numerator: Int32, denominator: Int32)) throws -> [Frame] {
        let started = Self.now()
        defer { busySeconds += Self.now() - started }
        let picture = frame.pointer.pointee
        let wanted = Key(width: picture.width, height: picture.height, format: picture.format,
                         sar: (picture.sample_aspect_ratio.num, max(picture.sample_aspect_ratio.den, 1)),
                         timeBase: (stream.numerator, stream.denominator))
        var out: [Frame] = []
        if key != wanted {
            // The old graph's last pictures first, then a new one for these.
            if graph != nil { out += try flush() }
            try build(wanted)
        }
        // The filter times pictures by `pts`; a decoded picture's time is its best-effort timestamp.
        frame.pointer.pointee.pts = frame.pointer.pointee.best_effort_timestamp
        try AVError.check(av_buffersrc_add_frame_flags(source, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                          "av_buffersrc_add_frame (\(filter.rawValue))")
        return out + (try collect())
    }

    /// The pictures the filter still holds; the graph is made again for the next picture.
    public func drain() throws -> [Frame] {
        let started = Self.now()
        defer { busySeconds += Self.now() - started }
        guard graph != nil else { return [] }
        return try flush()
    }

    private func flush() throws -> [Frame] {
        try AVError.check(av_buffersrc_add_frame_flags(source, nil, 0), "av_buffersrc_add_frame (end)")
        let out = try collect()
        reset()
        return out
    }

    private func collect() throws -> [Frame] {
        var out: [Frame] = []
        while true {
            let frame = try Frame()
            let status = av_buffersink_get_frame(sink, frame.pointer)
            if status == zapper_averror(EAGAIN) || status == zapper_averror_eof() { return out }
            try AVError.check(status, "av_buffersink_get_frame (\(filter.rawValue))")
            // Read back as every decoded picture is (`Frame.pts`).
            frame.pointer.pointee.best_effort_timestamp = frame.pointer.pointee.pts
            out.append(frame)
        }
    }

    private func build(_ wanted: Key) throws {
        guard let made = avfilter_graph_alloc() else { throw AVError(code: zapper_averror(ENOMEM), operation: "avfilter_graph_alloc") }
        graph = made
        // One thread: the decode thread is the filter's; a box's other core plays the sound and the screen.
        made.pointee.nb_threads = 1
        let format = av_get_pix_fmt_name(AVPixelFormat(wanted.format)).map { String(cString: $0) } ?? "\(wanted.format)"
        let sourceArguments = "video_size=\(wanted.width)x\(wanted.height):pix_fmt=\(format)"
            + ":time_base=\(wanted.timeBase.0)/\(wanted.timeBase.1):pixel_aspect=\(max(wanted.sar.0, 0))/\(wanted.sar.1)"
        let mode = rate == .field ? "send_field" : "send_frame"
        do {
            source = try add("buffer", name: "in", arguments: sourceArguments)
            let deinterlace = try add(filter.rawValue, name: "deinterlace", arguments: "mode=\(mode):parity=auto:deint=interlaced")
            sink = try add("buffersink", name: "out", arguments: nil)
            try AVError.check(avfilter_link(source, 0, deinterlace, 0), "avfilter_link (buffer → \(filter.rawValue))")
            try AVError.check(avfilter_link(deinterlace, 0, sink, 0), "avfilter_link (\(filter.rawValue) → buffersink)")
            try AVError.check(avfilter_graph_config(made, nil), "avfilter_graph_config (\(filter.rawValue))")
        } catch {
            reset()
            throw error
        }
        let base = av_buffersink_get_time_base(sink)
        timeBase = (base.num, base.den)
        key = wanted
    }

    private func add(_ filterName: String, name: String, arguments: String?) throws -> UnsafeMutablePointer<AVFilterContext> {
        guard let definition = avfilter_get_by_name(filterName) else {
            throw AVError(code: zapper_averror(ENOSYS), operation: "no \(filterName) filter in this FFmpeg")
        }
        var context: UnsafeMutablePointer<AVFilterContext>?
        try AVError.check(avfilter_graph_create_filter(&context, definition, name, arguments, nil, graph),
                          "avfilter_graph_create_filter (\(filterName) \(arguments ?? ""))")
        guard let context else { throw AVError(code: zapper_averror(ENOMEM), operation: "avfilter_graph_create_filter (\(filterName))") }
        return context
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
