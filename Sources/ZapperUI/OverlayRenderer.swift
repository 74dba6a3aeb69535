import CCairo
import ZapperCore

/// Draws the overlay, a screen-sized premultiplied ARGB32 Cairo surface that
/// is transparent except where cards, banners, the logo bug, digits, the
/// swipe-up panel, the hint, subtitles or the locked screen are.
///
/// Each frame the player calls `render(_:)` with the layers to show (the
/// animation lives in their `appearance` and the spinner's phase), then blends
/// the result onto the video frame (`blend(onto:…)`) or hands `withPixels` to
/// an ARGB plane. Not thread-safe: use it from the loop that owns the screen.
public final class OverlayRenderer {
    public let width: Int
    public let height: Int
    public let layout: OverlayLayout
    /// Where the overlay may have non-transparent pixels after the last
    /// `render` (whole pixels, on screen); nil when it is entirely transparent.
    public private(set) var dirty: Rect?
    /// The same area as rectangles that do not overlap: blending visits only these.
    public private(set) var dirtyRegions: [Rect] = []
    /// What the last `render` changed: its `dirty` and the previous one. A
    /// separate UI plane needs to be updated only there.
    public private(set) var damage: Rect?

    private let pixels: OverlayPixels
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let text: OpaquePointer
    private let logos: LogoCache
    private let shadows = ShadowCache()
    private let sprites = LayerSprites()
    private var lastLayers: [OverlayLayer]?
    /// The guide, kept drawn while it is up (`GuideCanvas`); released when it closes.
    private var guideCanvas: GuideCanvas?
    /// The guide is the bottom layer this frame: it covers every pixel, so nothing is cleared first.
    private var guideAtBottom = false
    /// The rows drawn on since the overlay's pages were last given back.
    private var touchedRows = OverlayRows()

    public init(width: Int, height: Int, safeArea: OverlayLayout.SafeArea = .title) {
        precondition(width > 0 && height > 0, "an overlay needs a size")
        self.width = width
        self.height = height
        layout = OverlayLayout(width: width, height: height, safeArea: safeArea)
        logos = LogoCache(side: Int(layout.units(OverlayLayout.largestLogoSide).rounded(.up)))
        guard let pixels = OverlayPixels(width: width, height: height) else {
            preconditionFailure("no memory for a \(width)x\(height) overlay")
        }
        self.pixels = pixels
        surface = cairo_image_surface_create_for_data(pixels.data, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(pixels.stride))
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
                     "cairo: \(String(cString: cairo_status_to_string(cairo_surface_status(surface))))")
        cr = cairo_create(surface)
        text = pango_cairo_create_layout(cr)!

        // Grey antialiasing (the overlay is blended and scaled, subpixel would fringe)
        // and unhinted metrics, so text scales evenly from 720p to 4K.
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pango_layout_get_context(text), options)
        pango_layout_context_changed(text)
        pango_layout_set_single_paragraph_mode(text, 1)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(text))
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Redraws the overlay with `layers`, bottom first: clears what the last
    /// frame drew, then draws each layer that is at least partly shown.
    /// The same layers as the last frame draw nothing (a banner that is up,
    /// the logo bug): `dirty` stays and `damage` becomes nil.
    public func render(_ layers: [OverlayLayer]) {
        if layers == lastLayers {
            damage = nil
            return
        }
        lastLayers = layers
        let previous = dirty
        guideAtBottom = { if case .guide = layers.first { true } else { false } }()
        if !layers.contains(where: { if case .guide = $0 { true } else { false } }) { guideCanvas = nil }
        if layers.isEmpty {
            // Nothing shows: the cleared overlay's pages and the layers' images go back.
            if !dirtyRegions.isEmpty { pixels.release() }
            touchedRows = OverlayRows()
            cairo_surface_mark_dirty(surface)
            sprites.removeAll()
        } else if !dirtyRegions.isEmpty && !guideAtBottom {
            cairo_save(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            for region in dirtyRegions {
                cairo_rectangle(cr, region.x, region.y, region.width, region.height)
            }
            cairo_fill(cr)
            cairo_restore(cr)
        }
        let painter = OverlayPainter(cr: cr, text: text, layout: layout, shadows: shadows)
        for layer in layers {
            draw(layer, with: painter)
        }
        // At rest (every layer fully shown) only the images of what is on screen are kept: a
        // box left on one channel holds no cards or banners of the channels it showed before.
        if layers.allSatisfy({ $0.appearance >= 1 }) { sprites.keepOnly(layers.compactMap(LayerSprites.still)) }
        cairo_surface_flush(surface)
        dirtyRegions = layout.regions(of: layers)
        giveBackRowsNotShown(atRest: layers.allSatisfy { $0.appearance >= 1 })
        dirty = layout.bounds(of: layers)
        switch (previous, dirty) {
        case (nil, nil): damage = nil
        case (let a?, nil): damage = a
        case (nil, let b?): damage = b
        case (let a?, let b?): damage = a.union(b)
        }
    }

    /// At rest, the pages of rows drawn on before but covered by no layer now (a banner gone,
    /// the logo bug still up) go back to the kernel: they hold only cleared pixels. Without this a
    /// layer that never leaves (the logo bug) would keep every row any card or panel ever used
    /// in memory, up to the whole overlay (8 MB at 1080p).
    private func giveBackRowsNotShown(atRest: Bool) {
        let shown = OverlayRows(covering: dirtyRegions, height: height)
        touchedRows.formUnion(shown)
        guard atRest, !shown.contains(touchedRows) else { return }
        for rows in shown.gaps(height: height) { pixels.release(rows: rows) }
        cairo_surface_mark_dirty(surface)
        touchedRows = shown
    }

    private func draw(_ layer: OverlayLayer, with painter: OverlayPainter) {
        guard let bounds = layout.bounds(of: layer) else { return }
        let opacity = OverlayLayout.eased(layer.appearance)

        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Nothing may land outside the bounds the dirty rectangle promises.
        cairo_rectangle(cr, bounds.x, bounds.y, bounds.width, bounds.height)
        cairo_clip(cr)
        cairo_new_path(cr)
        // The locked screen hides the picture from the first frame: only its card fades.
        if case .locked = layer { painter.lockedBackdrop() }
        guard opacity > 0 else { return }
        let fading = opacity < 1
        if let still = LayerSprites.still(layer), let sprite = sprite(of: still) {
            // Where the appearance puts it: the slide, in whole pixels (the image keeps the
            // fully shown layer's place within a pixel).
            let shown = layout.frame(of: still), now = layout.frame(of: layer)
            let dx = (now.minX - shown.minX).rounded(), dy = (now.minY - shown.minY).rounded()
            var phase: Double?
            if case .interstitial(let card, _) = layer, case .loading(let turn) = card.status { phase = turn }
            let grouped = fading && phase != nil
            if grouped { cairo_push_group(cr) }
            cairo_set_source_surface(cr, sprite.image.surface, sprite.x + dx, sprite.y + dy)
            if fading && !grouped { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
            if let phase { painter.spinner(in: layout.card().status.offsetBy(dx: dx, dy: dy), phase: phase) }
            if grouped {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            }
            return
        }
        if fading { cairo_push_group(cr) }
        paint(layer, with: painter, spinner: true)
        if fading {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    private func paint(_ layer: OverlayLayer, with painter: OverlayPainter, spinner: Bool) {
        switch layer {
        case .interstitial(let card, let a):
            painter.interstitial(card, logo: logo(card.channel), appearance: a, spinner: spinner)
        case .banner(let banner, let a):
            painter.banner(banner, logo: logo(banner.channel), appearance: a)
        case .logoBug(let channel, let a):
            painter.logoBug(channel, logo: logo(channel), appearance: a)
        case .digits(let entry, let a):
            painter.digits(entry, appearance: a)
        case .panel(let content, let a):
            painter.swipePanel(content, appearance: a, logo: logo)
        case .hint(let message, let a):
            painter.hint(message, appearance: a)
        case .locked(let card, let a):
            painter.lockedCard(card, logo: logo(card.channel), appearance: a)
        case .subtitles(let lines, _):
            painter.subtitles(lines)
        case .volume(let level, _):
            painter.volume(level)
        case .offline:
            painter.offlineBadge()
        case .radio(let screen, _):
            painter.radio(screen, logo: logo(screen.channel))
        case .bitmapSubtitles(let bitmap, _):
            painter.bitmapSubtitles(bitmap)
        case .guide(let content, _):
            if guideCanvas == nil { guideCanvas = GuideCanvas(layout: layout) }
            guard let canvas = guideCanvas else { return painter.guideGrid(content, logo: logo) }
            canvas.update(content, painter: { canvasCR in
                pango_cairo_update_layout(canvasCR, text)
                return OverlayPainter(cr: canvasCR, text: text, layout: layout, shadows: shadows)
            }, logo: logo)
            pango_cairo_update_layout(cr, text)
            if guideAtBottom { cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE) }
            cairo_set_source_surface(cr, canvas.image.surface, 0, 0)
            cairo_paint(cr)
        case .blank:
            painter.fill(layout.screen, radius: 0, RGBA(0, 0, 0, 1))
        }
    }

    /// The fully shown layer `still` as an image, and where it goes on the overlay:
    /// its bounds (whole pixels), drawn by the same painter with the text layout
    /// lent to the image's context.
    private func sprite(of still: OverlayLayer) -> (image: CairoImage, x: Double, y: Double)? {
        guard let bounds = layout.bounds(of: still) else { return nil }
        let image = sprites.image(of: still, width: Int(bounds.width), height: Int(bounds.height)) { spriteCR in
            cairo_translate(spriteCR, -bounds.minX, -bounds.minY)
            pango_cairo_update_layout(spriteCR, text)
            defer { pango_cairo_update_layout(cr, text) }
            paint(still, with: OverlayPainter(cr: spriteCR, text: text, layout: layout, shadows: shadows), spinner: false)
        }
        return image.map { ($0, bounds.minX, bounds.minY) }
    }

    /// The channel's logo, at most as large as the largest box it is drawn in (`LogoCache`).
    private func logo(_ channel: ChannelIdentity) -> CairoImage? {
        guard let bytes = channel.logoPNG, !bytes.isEmpty else { return nil }
        return logos.image(bytes)
    }

    /// How many layer images are kept (for tests).
    var spriteCount: Int { sprites.count }

    /// The pixels of the decoded logos kept (for tests).
    var logoPixels: Int { logos.decodedPixels }

    /// Bytes of the overlay's pixels in memory (for tests).
    var residentPixelBytes: Int? { pixels.residentBytes() }

    // MARK: Reading the result

    /// Lends the overlay's pixels (premultiplied ARGB32, `stride` bytes per row)
    /// without copying; valid only inside `body`.
    public func withPixels<R>(_ body: (_ pixels: UnsafeRawBufferPointer, _ stride: Int) throws -> R) rethrows -> R {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height), stride)
    }

    /// A copy of the overlay.
    public func image() -> ARGBImage {
        withPixels { pixels, stride in
            ARGBImage(width: width, height: height, stride: stride, pixels: Array(pixels))
        }
    }

    /// Blends the overlay onto an XRGB8888 frame of the same size, touching only `dirtyRegions`.
    public func blend(onto frame: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int) {
        withPixels { pixels, overlayStride in
            for region in dirtyRegions {
                OverlayBlend.blend(overlay: pixels, overlayStride: overlayStride, onto: frame,
                                   width: min(width, self.width), height: min(height, self.height), stride: stride,
                                   region: region)
            }
        }
    }
}
