import CCairo

/// Saves 32-bit XRGB pixels (B, G, R, X in memory) as a PNG, with Cairo.
public enum PNGWriter {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func write(pixels: [UInt8], width: Int, height: Int, stride: Int, to path: String) throws {
        guard stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width))),
              pixels.count >= stride * height else {
            throw Failure(description: "\(path): a \(width)x\(height) image needs a stride Cairo accepts")
        }
        var copy = pixels
        let status = copy.withUnsafeMutableBufferPointer { buffer -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_RGB24,
                                                              Int32(width), Int32(height), Int32(stride))
            defer { cairo_surface_destroy(surface) }
            return cairo_surface_write_to_png(surface, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "\(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
