import CCairo
import Foundation
import ZapperCore

/// A colour with straight (not premultiplied) alpha, components 0…1.
struct RGBA {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double = 1

    init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    static func white(_ alpha: Double) -> RGBA { RGBA(1, 1, 1, alpha) }
    func with(alpha: Double) -> RGBA { RGBA(red, green, blue, alpha) }
}

/// The overlay's palette: tvOS-like dark glass, white type, one accent for errors.
enum OverlayStyle {
    static let panelTop = RGBA(0.15, 0.16, 0.20, 0.90)
    static let panelBottom = RGBA(0.07, 0.08, 0.10, 0.93)
    static let panelEdge = RGBA.white(0.12)
    static let shadow = RGBA(0, 0, 0, 0.045)
    static let primaryText = RGBA.white(0.96)
    static let secondaryText = RGBA.white(0.66)
    static let labelText = RGBA.white(0.46)
    static let tile = RGBA.white(0.08)
    static let errorAccent = RGBA(1.0, 0.27, 0.23)
    static let liveAccent = RGBA(0.04, 0.52, 1.0)
    static let focusRing = RGBA.white(0.97)
    static let focusFill = RGBA.white(0.17)
    static let selectedTab = RGBA.white(0.11)
    /// The locked card's screen: opaque, so no picture shows through.
    static let lockedTop = RGBA(0.06, 0.07, 0.09)
    static let lockedBottom = RGBA(0.02, 0.02, 0.03)
    static let subtitleBox = RGBA(0, 0, 0, 0.74)
    static let family = "DejaVu Sans"
}

/// Drawing primitives over one Cairo context and one reusable Pango layout.
/// Borrowed for the length of a frame; the renderer owns both C objects.
struct OverlayPainter {
    let cr: OpaquePointer
    let text: OpaquePointer
    let layout: OverlayLayout
    let shadows: ShadowCache

    func units(_ value: Double) -> Double { layout.units(value) }

    func set(_ colour: RGBA) {
        cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha)
    }

    // MARK: Shapes

    func roundedRect(_ rect: Rect, radius: Double) {
        addRoundedRect(cr, rect, radius: radius)
    }

    func fill(_ rect: Rect, radius: Double, _ colour: RGBA) {
        cairo_new_path(cr)
        roundedRect(rect, radius: radius)
        set(colour)
        cairo_fill(cr)
    }

    /// A soft shadow around (never under) a panel, drawn once per panel size
    /// and then only painted: stacked rings that fade out, cheaper than a blur,
    /// and the panel's translucency stays untouched.
    func shadow(around panel: Rect, radius: Double) {
        let reach = units(OverlayLayout.shadowReach)
        guard let image = shadows.image(width: panel.width, height: panel.height, radius: radius,
                                        reach: reach, drop: units(8)) else { return }
        cairo_set_source_surface(cr, image.surface, panel.minX - reach, panel.minY - reach)
        cairo_paint(cr)
    }

    /// Dark translucent glass with a faint light edge, as tvOS draws its cards.
    func panel(_ rect: Rect, radius: Double, edge: RGBA = OverlayStyle.panelEdge) {
        shadow(around: rect, radius: radius)
        let gradient = cairo_pattern_create_linear(0, rect.minY, 0, rect.maxY)!
        defer { cairo_pattern_destroy(gradient) }
        let top = OverlayStyle.panelTop
        let bottom = OverlayStyle.panelBottom
        cairo_pattern_add_color_stop_rgba(gradient, 0, top.red, top.green, top.blue, top.alpha)
        cairo_pattern_add_color_stop_rgba(gradient, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
        cairo_new_path(cr)
        roundedRect(rect, radius: radius)
        cairo_set_source(cr, gradient)
        cairo_fill(cr)

        let line = max(1, units(1.5))
        cairo_new_path(cr)
        roundedRect(rect.insetBy(dx: line / 2, dy: line / 2), radius: radius - line / 2)
        cairo_set_line_width(cr, line)
        set(edge)
        cairo_stroke(cr)
    }

    // MARK: Text

    struct Font {
        var size: Double
        var weight: PangoWeight = PANGO_WEIGHT_NORMAL
        /// Extra space between letters, in design units (for small capitals labels).
        var tracking: Double = 0
    }

    enum Alignment { case left, centre, right }

    /// Prepares the layout with one line of text, ellipsized to `width`.
    func prepare(_ string: String, _ font: Font, width: Double?, alignment: Alignment) {
        let description = pango_font_description_new()
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, OverlayStyle.family)
        pango_font_description_set_weight(description, font.weight)
        pango_font_description_set_absolute_size(description, font.size * layout.scale * Double(zapper_pango_scale()))
        pango_layout_set_font_description(text, description)

        let attributes = pango_attr_list_new()
        defer { pango_attr_list_unref(attributes) }
        if font.tracking != 0 {
            pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(
                Int32(units(font.tracking) * Double(zapper_pango_scale()))))
        }
        pango_layout_set_attributes(text, attributes)

        if let width {
            pango_layout_set_width(text, Int32(max(0, width) * Double(zapper_pango_scale())))
            pango_layout_set_ellipsize(text, PANGO_ELLIPSIZE_END)
        } else {
            pango_layout_set_width(text, -1)
            pango_layout_set_ellipsize(text, PANGO_ELLIPSIZE_NONE)
        }
        switch alignment {
        case .left: pango_layout_set_alignment(text, PANGO_ALIGN_LEFT)
        case .centre: pango_layout_set_alignment(text, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(text, PANGO_ALIGN_RIGHT)
        }
        pango_layout_set_text(text, string, -1)
    }

    /// The width the string takes in this font (unclipped).
    func measure(_ string: String, _ font: Font) -> Double {
        prepare(string, font, width: nil, alignment: .left)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(text, &ink, &logical)
        return Double(logical.width)
    }

    /// Draws one line inside `rect`: clipped with an ellipsis to its width,
    /// its baseline at `baseline` or, when nil, its line box centred vertically.
    func draw(_ string: String, _ font: Font, in rect: Rect, _ colour: RGBA,
              alignment: Alignment = .left, baseline: Double? = nil) {
        guard rect.width > 0 else { return }
        prepare(string, font, width: rect.width, alignment: alignment)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(text, &ink, &logical)
        let top: Double
        if let baseline {
            top = baseline - Double(pango_layout_get_baseline(text)) / Double(zapper_pango_scale())
        } else {
            top = rect.midY - Double(logical.height) / 2
        }
        set(colour)
        cairo_move_to(cr, rect.minX, top)
        pango_cairo_show_layout(cr, text)
    }

    // MARK: Logos

    /// The logo fitted into `box` (aspect kept, centred), or the initials badge.
    func logo(_ logo: CairoImage?, name: String, in box: Rect, opacity: Double = 1) {
        guard let logo, logo.width > 0, logo.height > 0 else {
            initialsBadge(name: name, in: box, opacity: opacity)
            return
        }
        let fit = min(box.width / Double(logo.width), box.height / Double(logo.height))
        let width = Double(logo.width) * fit
        let height = Double(logo.height) * fit
        cairo_save(cr)
        cairo_translate(cr, box.midX - width / 2, box.midY - height / 2)
        cairo_scale(cr, fit, fit)
        cairo_set_source_surface(cr, logo.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_rectangle(cr, 0, 0, Double(logo.width), Double(logo.height))
        cairo_clip(cr)
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }

    /// A round badge with the channel's initials in a colour derived from its name.
    func initialsBadge(name: String, in box: Rect, opacity: Double = 1) {
        let diameter = min(box.width, box.height)
        let centre = (x: box.midX, y: box.midY)
        let colour = ChannelMonogram.colour(for: name)
        let gradient = cairo_pattern_create_linear(0, centre.y - diameter / 2, 0, centre.y + diameter / 2)!
        defer { cairo_pattern_destroy(gradient) }
        let lift = 0.12
        cairo_pattern_add_color_stop_rgba(gradient, 0, min(1, colour.red + lift), min(1, colour.green + lift),
                                          min(1, colour.blue + lift), opacity)
        cairo_pattern_add_color_stop_rgba(gradient, 1, colour.red * 0.8, colour.green * 0.8, colour.blue * 0.8, opacity)
        cairo_new_path(cr)
        cairo_arc(cr, centre.x, centre.y, diameter / 2, 0, 2 * Double.pi)
        cairo_set_source(cr, gradient)
        cairo_fill(cr)

        let initials = ChannelMonogram.initials(for: name)
        let share = initials.count >= 3 ? 0.30 : initials.count == 2 ? 0.38 : 0.46
        let font = Font(size: diameter * share / layout.scale, weight: PANGO_WEIGHT_BOLD)
        draw(initials, font, in: Rect(x: box.midX - diameter / 2, y: box.minY, width: diameter, height: box.height),
             RGBA.white(0.97 * opacity), alignment: .centre)
    }

    // MARK: Status glyphs

    /// The activity spinner: twelve spokes, the brightest at `phase` (one turn per 1.0).
    func spinner(in box: Rect, phase: Double, opacity: Double = 1) {
        let spokes = 12
        let radius = min(box.width, box.height) / 2
        let turn = phase - phase.rounded(.down)
        let head = Int(turn * Double(spokes)) % spokes
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, radius * 0.17)
        for spoke in 0..<spokes {
            // Spokes behind the head fade like a trail.
            let age = (head - spoke + spokes) % spokes
            let alpha = 0.18 + 0.82 * (1 - Double(age) / Double(spokes - 1))
            let angle = 2 * Double.pi * Double(spoke) / Double(spokes) - Double.pi / 2
            cairo_new_path(cr)
            cairo_move_to(cr, box.midX + cos(angle) * radius * 0.50, box.midY + sin(angle) * radius * 0.50)
            cairo_line_to(cr, box.midX + cos(angle) * radius * 0.92, box.midY + sin(angle) * radius * 0.92)
            set(RGBA.white(alpha * 0.95 * opacity))
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }

    /// A filled accent circle with an exclamation mark.
    func errorIcon(in box: Rect, colour: RGBA) {
        let radius = min(box.width, box.height) / 2
        cairo_new_path(cr)
        cairo_arc(cr, box.midX, box.midY, radius, 0, 2 * Double.pi)
        set(colour)
        cairo_fill(cr)
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, radius * 0.22)
        cairo_new_path(cr)
        cairo_move_to(cr, box.midX, box.midY - radius * 0.48)
        cairo_line_to(cr, box.midX, box.midY + radius * 0.10)
        set(RGBA.white(1))
        cairo_stroke(cr)
        cairo_new_path(cr)
        cairo_arc(cr, box.midX, box.midY + radius * 0.45, radius * 0.13, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_restore(cr)
    }
}

/// Panel shadows, rendered once per panel size: they cost more than the rest
/// of a frame together, and panels only come in a few sizes.
final class ShadowCache {
    private struct Key: Hashable {
        var width: Int, height: Int, radius: Int, reach: Int
    }

    private var images: [Key: CairoImage] = [:]

    /// The shadow of a `width` x `height` panel, the panel's corner at (`reach`, `reach`).
    func image(width: Double, height: Double, radius: Double, reach: Double, drop: Double) -> CairoImage? {
        let key = Key(width: Int((width * 64).rounded()), height: Int((height * 64).rounded()),
                      radius: Int((radius * 64).rounded()), reach: Int((reach * 64).rounded()))
        if let known = images[key] { return known }
        if images.count >= 16 { images.removeAll() }
        guard let image = CairoImage(width: Int((width + 2 * reach).rounded(.up)),
                                     height: Int((height + 2 * reach).rounded(.up)), draw: { cr in
            let panel = Rect(x: reach, y: reach, width: width, height: height)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            let steps = 8
            for step in 1...steps {
                let grow = reach * Double(step) / Double(steps) - drop
                cairo_new_path(cr)
                addRoundedRect(cr, panel, radius: radius)
                addRoundedRect(cr, panel.insetBy(dx: -grow, dy: -grow).offsetBy(dx: 0, dy: drop), radius: radius + grow)
                let colour = OverlayStyle.shadow
                cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha)
                cairo_fill(cr)
            }
        }) else { return nil }
        images[key] = image
        return image
    }
}

/// Adds a rounded rectangle to the current path as its own sub-path.
func addRoundedRect(_ cr: OpaquePointer, _ rect: Rect, radius: Double) {
    let r = max(0, min(radius, rect.width / 2, rect.height / 2))
    cairo_new_sub_path(cr)
    cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
    cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
    cairo_arc(cr, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cr, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
    cairo_close_path(cr)
}
