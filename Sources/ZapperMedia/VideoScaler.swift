import CFFmpeg
import ZapperCore

/// A frame in memory as the display scans it: 32-bit XRGB8888, little-endian
/// (bytes B, G, R, X), `stride` bytes per row.
public struct XRGBImage: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Mean brightness (0…255, BT.601 weights) over a sparse grid of points: cheap enough per frame.
    public func meanLuma(step: Int = 16) -> Int {
        var total = 0
        var count = 0
        for y in Swift.stride(from: step / 2, to: height, by: step) {
            for x in Swift.stride(from: step / 2, to: width, by: step) {
                let (r, g, b) = rgb(x: x, y: y)
                total += (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000
                count += 1
            }
        }
        return count == 0 ? 0 : total / count
    }

    /// (red, green, blue) at a point.
    public func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = y * stride + x * 4
        return (pixels[offset + 2], pixels[offset + 1], pixels[offset])
    }
}

/// The rectangle a picture of `source` size takes inside `target` when it
/// keeps its aspect ratio (letterbox or pillarbox), centred, even-aligned.
public func aspectFit(source: (width: Int, height: Int), target: (width: Int, height: Int))
    -> (x: Int, y: Int, width: Int, height: Int) {
    PicturePlacement(mode: .fit, source: source, target: target).box
}

/// Converts and scales decoded pictures into an XRGB image with libswscale,
/// placed by the picture mode (fit with black bars, fill or zoom cropped).
/// Reuses its scaler while the sizes stay.
public final class VideoScaler {
    private var context: OpaquePointer?
    private var key: (Int, Int, Int32, Int, Int) = (0, 0, -1, 0, 0)
    /// How pictures are placed from the next `draw` on.
    public var mode = PictureMode.fit

    public init() {}

    deinit {
        sws_freeContext(context)
    }

    /// Draws `frame` into `image` placed by `mode`; bars are black.
    public func draw(_ frame: Frame, into image: inout XRGBImage) throws {
        let placement = PicturePlacement(mode: mode, source: (frame.width, frame.height), target: (image.width, image.height))
        let box = placement.box
        // A cropped picture is a second reference to the same buffers with its data pointers
        // moved (aligned: libavutil may keep a few more pixels on the left).
        var cropped: UnsafeMutablePointer<AVFrame>?
        defer { av_frame_free(&cropped) }
        if placement.crop != (0, 0, frame.width, frame.height) {
            guard let clone = av_frame_clone(frame.pointer) else { throw AVError(code: zapper_averror(ENOMEM), operation: "av_frame_clone") }
            cropped = clone
            let crop = placement.crop
            clone.pointee.crop_left = crop.x
            clone.pointee.crop_top = crop.y
            clone.pointee.crop_right = frame.width - crop.x - crop.width
            clone.pointee.crop_bottom = frame.height - crop.y - crop.height
            try AVError.check(av_frame_apply_cropping(clone, 0), "av_frame_apply_cropping")
        }
        let picture = cropped ?? frame.pointer
        let source = picture.pointee
        let wanted = (Int(source.width), Int(source.height), source.format, box.width, box.height)
        if context == nil || wanted != key {
            sws_freeContext(context)
            context = sws_getContext(source.width, source.height, AVPixelFormat(source.format),
                                     Int32(box.width), Int32(box.height), AV_PIX_FMT_BGR0,
                                     SWS_BILINEAR, nil, nil, nil)
            key = wanted
            guard context != nil else {
                throw AVError(code: zapper_averror(EINVAL), operation: "sws_getContext \(source.width)x\(source.height) -> \(box.width)x\(box.height)")
            }
        }
        // Bars: clear only what the picture does not cover.
        if box.width < image.width || box.height < image.height {
            image.pixels.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
        let stride = Int32(image.stride)
        try image.pixels.withUnsafeMutableBytes { raw in
            var destination: [UnsafeMutablePointer<UInt8>?] = [raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                .advanced(by: box.y * image.stride + box.x * 4), nil, nil, nil]
            var strides: [Int32] = [stride, 0, 0, 0]
            let sourcePlanes = withUnsafePointer(to: picture.pointee.data) {
                $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
            }
            let sourceStrides = withUnsafePointer(to: picture.pointee.linesize) {
                $0.withMemoryRebound(to: Int32.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
            }
            let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, source.height, &destination, &strides)
            try AVError.check(rows, "sws_scale")
        }
    }
}
