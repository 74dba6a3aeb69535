import CCairo

/// A premultiplied ARGB32 image, as Cairo draws it.
public struct ARGBImage: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// The 0xAARRGGBB value at a point.
    public func pixel(x: Int, y: Int) -> UInt32 {
        let offset = y * stride + x * 4
        return pixels.withUnsafeBytes { $0.load(fromByteOffset: offset, as: UInt32.self) }
    }
}

extension ARGBImage: CustomStringConvertible {
    /// The size only: printing the pixels of a frame helps no one.
    public var description: String { "ARGBImage \(width)x\(height) (stride \(stride))" }
}

/// Draws a line of text with Pango (fontconfig picks the font).
public enum TextRaster {
    public static func render(_ text: String, font: String = "DejaVu Sans Bold 32",
                              colour: (Double, Double, Double) = (1, 1, 1)) -> ARGBImage {
        // Measure on a scratch surface, then draw on one of the right size.
        let scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let scratchContext = cairo_create(scratch)
        let layout = pango_cairo_create_layout(scratchContext)
        let description = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, text, -1)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)

        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, max(width, 1), max(height, 1))
        let context = cairo_create(surface)
        cairo_set_source_rgb(context, colour.0, colour.1, colour.2)
        pango_cairo_update_layout(context, layout)
        pango_cairo_show_layout(context, layout)
        cairo_surface_flush(surface)

        let stride = Int(cairo_image_surface_get_stride(surface))
        let rows = Int(cairo_image_surface_get_height(surface))
        let data = cairo_image_surface_get_data(surface)!
        let pixels = Array(UnsafeBufferPointer(start: data, count: stride * rows))
        let image = ARGBImage(width: Int(cairo_image_surface_get_width(surface)), height: rows,
                              stride: stride, pixels: pixels)

        pango_font_description_free(description)
        g_object_unref(UnsafeMutableRawPointer(layout))
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        cairo_destroy(scratchContext)
        cairo_surface_destroy(scratch)
        return image
    }
}
