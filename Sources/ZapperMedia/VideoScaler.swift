import CFFmpeg

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
    guard source.width > 0, source.height > 0 else { return (0, 0, target.width, target.height) }
    let scale = min(Double(target.width) / Double(source.width), Double(target.height) / Double(source.height))
    let width = min(target.width, Int((Double(source.width) * scale).rounded()) & ~1)
    let height = min(target.height, Int((Double(source.height) * scale).rounded()) & ~1)
    return ((target.width - width) / 2, (target.height - height) / 2, width, height)
}

/// Converts and scales decoded pictures into an XRGB image with libswscale,
/// aspect-fitted with black bars. Reuses its scaler while the sizes stay.
public final class VideoScaler {
    private var context: OpaquePointer?
    private var key: (Int, Int, Int32, Int, Int) = (0, 0, -1, 0, 0)

    public init() {}

    deinit {
        sws_freeContext(context)
    }

    /// Draws `frame` into `image`, aspect-fitted; the bars are black.
    public func draw(_ frame: Frame, into image: inout XRGBImage) throws {
        let source = frame.pointer.pointee
        let box = aspectFit(source: (Int(source.width), Int(source.height)), target: (image.width, image.height))
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
            let sourcePlanes = withUnsafePointer(to: frame.pointer.pointee.data) {
                $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
            }
            let sourceStrides = withUnsafePointer(to: frame.pointer.pointee.linesize) {
                $0.withMemoryRebound(to: Int32.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) }
            }
            let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, source.height, &destination, &strides)
            try AVError.check(rows, "sws_scale")
        }
    }
}
