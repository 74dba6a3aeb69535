import CCairo

/// A Cairo image surface we own (ARGB32, premultiplied): decoded logos live
/// as these so drawing them needs no copy.
final class CairoImage {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// Takes ownership of a surface in a good state.
    private init(surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// A new transparent image, drawn into by `draw` with its own context.
    convenience init?(width: Int, height: Int, draw: (_ cr: OpaquePointer) -> Void) {
        guard width > 0, height > 0,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        self.init(surface: surface)
    }

    /// The largest logo decoded: logo URLs come from untrusted lineups, and a
    /// tiny PNG can claim a picture of gigabytes.
    static let maximumPixels = 2048 * 2048

    /// Decodes PNG bytes; nil when they are not a PNG Cairo can read, or claim more than `maximumPixels`.
    convenience init?(png bytes: [UInt8]) {
        guard let size = CairoImage.pngSize(bytes), CairoImage.fits(width: size.width, height: size.height) else { return nil }
        var reader = PNGByteReader(bytes: bytes)
        let surface = withUnsafeMutablePointer(to: &reader) { state in
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                let reader = closure.assumingMemoryBound(to: PNGByteReader.self)
                return reader.pointee.read(into: data, count: Int(length))
            }, state)
        }
        guard let surface else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_width(surface) > 0, cairo_image_surface_get_height(surface) > 0 else {
            cairo_surface_destroy(surface)
            return nil
        }
        // Whatever the PNG's colour type, draw from ARGB32.
        if cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 {
            self.init(surface: surface)
        } else {
            defer { cairo_surface_destroy(surface) }
            guard let converted = CairoImage.argb32Copy(of: surface) else { return nil }
            self.init(surface: converted)
        }
    }

    /// This image, or a copy scaled down (aspect kept) so that neither side is longer than
    /// `side` pixels; nil when the copy cannot be made.
    func fitted(within side: Int) -> CairoImage? {
        guard side > 0, width > side || height > side else { return self }
        let scale = Double(side) / Double(max(width, height))
        let fittedWidth = max(1, Int((Double(width) * scale).rounded()))
        let fittedHeight = max(1, Int((Double(height) * scale).rounded()))
        return CairoImage(width: fittedWidth, height: fittedHeight) { cr in
            cairo_scale(cr, Double(fittedWidth) / Double(width), Double(fittedHeight) / Double(height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        }
    }

    /// Whether a picture of this size may be decoded: each side and the product
    /// checked without overflow (a header may claim 0xFFFFFFFF x 0xFFFFFFFF).
    static func fits(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maximumPixels, height <= maximumPixels else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maximumPixels
    }

    /// The width and height in a PNG's IHDR chunk, which the format puts first.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func bigEndian(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }

    private static func argb32Copy(of source: OpaquePointer) -> OpaquePointer? {
        let copy = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(source),
                                              cairo_image_surface_get_height(source))!
        let cr = cairo_create(copy)
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(copy)
        guard cairo_surface_status(copy) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(copy)
            return nil
        }
        return copy
    }

    /// A copy of the pixels.
    var argbImage: ARGBImage {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return ARGBImage(width: width, height: height, stride: stride,
                         pixels: Array(UnsafeBufferPointer(start: data, count: stride * height)))
    }
}

/// Feeds a byte array to Cairo's PNG stream reader.
private struct PNGByteReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
        bytes.withUnsafeBufferPointer { source in
            destination.update(from: source.baseAddress! + offset, count: count)
        }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}

/// Decodes PNG bytes into a premultiplied ARGB32 image; nil for bytes that are not a readable PNG.
public func decodePNG(_ bytes: [UInt8]) -> ARGBImage? {
    CairoImage(png: bytes)?.argbImage
}

extension PNGWriter {
    /// Saves a premultiplied ARGB32 image as a PNG with alpha.
    public static func write(_ image: ARGBImage, to path: String) throws {
        guard image.stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(image.width))),
              image.pixels.count >= image.stride * image.height else {
            throw Failure(description: "\(path): a \(image.width)x\(image.height) image needs a stride Cairo accepts")
        }
        var copy = image.pixels
        let status = copy.withUnsafeMutableBufferPointer { buffer -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32,
                                                              Int32(image.width), Int32(image.height), Int32(image.stride))
            defer { cairo_surface_destroy(surface) }
            return cairo_surface_write_to_png(surface, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "\(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// Encodes a premultiplied ARGB32 image as PNG bytes (with alpha); nil if Cairo refuses it.
public func encodePNG(_ image: ARGBImage) -> [UInt8]? {
    guard image.width > 0, image.height > 0,
          image.stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(image.width))),
          image.pixels.count >= image.stride * image.height else { return nil }
    var copy = image.pixels
    return copy.withUnsafeMutableBufferPointer { buffer in
        let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32,
                                                          Int32(image.width), Int32(image.height), Int32(image.stride))
        defer { cairo_surface_destroy(surface) }
        return CairoImage.pngBytes(of: surface)
    }
}

extension CairoImage {
    /// The image encoded as PNG bytes (with alpha); nil if Cairo refuses it.
    func pngBytes() -> [UInt8]? {
        cairo_surface_flush(surface)
        return Self.pngBytes(of: surface)
    }

    fileprivate static func pngBytes(of surface: OpaquePointer?) -> [UInt8]? {
        var output: [UInt8] = []
        let status = withUnsafeMutablePointer(to: &output) { sink in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                closure.assumingMemoryBound(to: [UInt8].self).pointee
                    .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, sink)
        }
        return status == CAIRO_STATUS_SUCCESS ? output : nil
    }
}
