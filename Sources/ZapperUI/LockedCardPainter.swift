import CCairo
import ZapperCore

/// Parental control's locked card: an opaque dark screen (no picture may show
/// through), and on it the channel, why it is locked, the PIN slots as dots
/// and a message.
extension OverlayPainter {
    /// The opaque screen behind the card, at full strength whatever the card's appearance.
    func lockedBackdrop() {
        let screen = layout.screen
        let gradient = cairo_pattern_create_linear(0, screen.minY, 0, screen.maxY)!
        defer { cairo_pattern_destroy(gradient) }
        let top = OverlayStyle.lockedTop, bottom = OverlayStyle.lockedBottom
        cairo_pattern_add_color_stop_rgb(gradient, 0, top.red, top.green, top.blue)
        cairo_pattern_add_color_stop_rgb(gradient, 1, bottom.red, bottom.green, bottom.blue)
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_new_path(cr)
        cairo_rectangle(cr, screen.minX, screen.minY, screen.width, screen.height)
        cairo_set_source(cr, gradient)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    func lockedCard(_ card: LockedCard, logo image: CairoImage?, appearance: Double) {
        let frame = layout.locked(pinLength: card.pinLength, appearance: appearance)
        panel(frame.card, radius: frame.cornerRadius)
        channelLogo(image, name: card.channel.name, in: frame.logo)
        draw("\(card.channel.number)  \(card.channel.name)", Font(size: 40, weight: PANGO_WEIGHT_BOLD),
             in: frame.title, OverlayStyle.primaryText, alignment: .centre)

        // The padlock and the reason, centred together.
        let reasonFont = Font(size: 30)
        let glyph = units(34), gap = units(14)
        let textWidth = min(measure(card.reason, reasonFont), frame.reason.width - glyph - gap)
        let left = frame.reason.midX - (glyph + gap + textWidth) / 2
        padlock(in: Rect(x: left, y: frame.reason.midY - glyph / 2 - units(2), width: glyph, height: glyph),
                OverlayStyle.secondaryText)
        draw(card.reason, reasonFont, in: Rect(x: left + glyph + gap, y: frame.reason.minY, width: textWidth,
                                              height: frame.reason.height), OverlayStyle.secondaryText)

        // Typed digits are dots, never digits; the next slot has a bright bar.
        for (index, (typed, cell)) in zip(card.slots, frame.slots).enumerated() {
            fill(cell, radius: units(14), RGBA.white(0.08))
            if typed {
                let radius = min(cell.width, cell.height) * 0.2
                cairo_new_path(cr)
                cairo_arc(cr, cell.midX, cell.midY, radius, 0, 2 * Double.pi)
                set(OverlayStyle.primaryText)
                cairo_fill(cr)
            } else {
                let bar = Rect(x: cell.midX - cell.width * 0.3, y: cell.maxY - units(20),
                               width: cell.width * 0.6, height: units(6))
                fill(bar, radius: bar.height / 2, RGBA.white(index == card.typedCount ? 0.92 : 0.3))
            }
        }
        let colour = card.isWarning ? OverlayStyle.errorAccent : OverlayStyle.primaryText
        draw(card.message, Font(size: 30, weight: card.isWarning ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL),
             in: frame.message, colour, alignment: .centre)
    }
}
