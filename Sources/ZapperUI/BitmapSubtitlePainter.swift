import CCairo
import ZapperCore

/// A DVB bitmap subtitle: each region's pixels (premultiplied ARGB, as the decoder gave them)
/// scaled from the subtitle's canvas onto the screen.
extension OverlayPainter {
    func bitmapSubtitles(_ bitmap: SubtitleBitmap) {
        for region in bitmap.regions {
            let frame = bitmap.frame(of: region, onScreen: Int(layout.screen.width), Int(layout.screen.height))
            var pixels = region.pixels
            pixels.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let image = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(region.width),
                                                                      Int32(region.height), Int32(region.width * 4)) else { return }
                defer { cairo_surface_destroy(image) }
                cairo_save(cr)
                cairo_translate(cr, frame.x, frame.y)
                cairo_scale(cr, frame.width / Double(region.width), frame.height / Double(region.height))
                cairo_set_source_surface(cr, image, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_paint(cr)
                cairo_restore(cr)
            }
        }
    }
}
