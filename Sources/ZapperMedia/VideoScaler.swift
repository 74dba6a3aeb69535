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
        pixels.withUnsafeBytes { Self.meanLuma($0, width: width, height: height, stride: stride, step: step) }
    }

    /// The same, of XRGB8888 pixels anywhere (a display's draw buffer).
    public static func meanLuma(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, step: Int = 16) -> Int {
        var total = 0
        var count = 0
        for y in Swift.stride(from: step / 2, to: height, by: step) {
            for x in Swift.stride(from: step / 2, to: width, by: step) {
                let offset = y * stride + x * 4
                guard offset + 2 < pixels.count else { continue }
                total += (299 * Int(pixels[offset + 2]) + 587 * Int(pixels[offset + 1]) + 114 * Int(pixels[offset])) / 1000
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
        let (width, height, stride) = (image.width, image.height, image.stride)
        try image.pixels.withUnsafeMutableBytes { try draw(frame, into: $0, width: width, height: height, stride: stride) }
    }

    /// Draws `frame` into an XRGB8888 buffer of `width` x `height` pixels, `stride` bytes a row
    /// (a display's draw buffer), placed by `mode`: the picture's box, and the bars black.
    public func draw(_ frame: Frame, into buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int) throws {
        guard width > 0, height > 0, stride >= width * 4, buffer.count >= stride * (height - 1) + width * 4 else {
            throw AVError(code: zapper_averror(EINVAL), operation: "draw into a \(buffer.count)-byte buffer of \(width)x\(height), stride \(stride)")
        }
        let placement = PicturePlacement(mode: mode, source: (frame.width, frame.height), target: (width, height),
                                         sampleAspect: frame.sampleAspect)
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
        let base = buffer.baseAddress!
        clearBars(around: box, in: base, width: width, height: height, stride: stride)
        var destination: [UnsafeMutablePointer<UInt8>?] = [base.assumingMemoryBound(to: UInt8.self).advanced(by: box.y * stride + box.x * 4), nil, nil, nil]
        var strides: [Int32] = [Int32(stride), 0, 0, 0]
        let sourcePlanes = withUnsafePointer(to: picture.pointee.data) {
            $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
        }
        let sourceStrides = withUnsafePointer(to: picture.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
        }
        let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, source.height, &destination, &strides)
        try AVError.check(rows, "sws_scale")
    }

    /// Black where the picture's box does not reach: the rows above and below it, and either side.
    private func clearBars(around box: (x: Int, y: Int, width: Int, height: Int), in base: UnsafeMutableRawPointer,
                           width: Int, height: Int, stride: Int) {
        guard box.width < width || box.height < height else { return }
        let top = max(0, min(box.y, height)), bottom = max(top, min(box.y + box.height, height))
        let left = max(0, min(box.x, width)), right = max(left, min(box.x + box.width, width))
        for row in 0..<height {
            let line = base + row * stride
            if row < top || row >= bottom {
                line.initializeMemory(as: UInt8.self, repeating: 0, count: width * 4)
            } else {
                if left > 0 { line.initializeMemory(as: UInt8.self, repeating: 0, count: left * 4) }
                if right < width { (line + right * 4).initializeMemory(as: UInt8.self, repeating: 0, count: (width - right) * 4) }
            }
        }
    }
}
