import CCairo
import ZapperCore

/// The "swipe up for more" hint: a small glass pill with an upward chevron,
/// sized to its text, at the bottom centre of the safe area.
extension OverlayPainter {
    func hint(_ message: String, appearance: Double) {
        let room = layout.hint(appearance: appearance)
        let font = Font(size: 28)
        let glyph = units(26), gap = units(14), padding = units(28)
        let textWidth = min(measure(message, font), room.width - 2 * padding - glyph - gap)
        let width = 2 * padding + glyph + gap + textWidth
        let pill = Rect(x: room.midX - width / 2, y: room.minY + units(4), width: width, height: room.height - units(8))
        panel(pill, radius: pill.height / 2)
        chevron(in: Rect(x: pill.minX + padding, y: pill.midY - glyph / 2, width: glyph, height: glyph),
                  OverlayStyle.primaryText)
        draw(message, font, in: Rect(x: pill.minX + padding + glyph + gap, y: pill.minY, width: textWidth,
                                    height: pill.height), OverlayStyle.primaryText)
    }
}
