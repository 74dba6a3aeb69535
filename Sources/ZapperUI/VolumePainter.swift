import CCairo
import ZapperCore

/// The sound level: a glass pill with a speaker (crossed out when muted), a bar
/// filled to the level and the level in figures, at the top centre of the safe area.
extension OverlayPainter {
    func volume(_ volume: VolumeLevel) {
        let frame = layout.volume()
        panel(frame.panel, radius: frame.panel.height / 2)
        speaker(in: frame.glyph, muted: volume.muted, OverlayStyle.primaryText)
        progressBar(frame.bar, volume.muted ? 0 : Double(volume.level) / 100)
        draw(volume.words, Font(size: volume.muted ? 26 : 32, weight: PANGO_WEIGHT_SEMIBOLD), in: frame.number,
             volume.muted ? OverlayStyle.secondaryText : OverlayStyle.primaryText, alignment: .right)
    }

    /// A loudspeaker: a box and a cone facing right; a cross beside it when muted, sound waves otherwise.
    private func speaker(in box: Rect, muted: Bool, _ colour: RGBA) {
        let size = min(box.width, box.height)
        let left = box.minX, midY = box.midY
        cairo_save(cr)
        defer { cairo_restore(cr) }
        set(colour)
        cairo_new_path(cr)
        cairo_move_to(cr, left, midY - size * 0.16)
        cairo_line_to(cr, left + size * 0.22, midY - size * 0.16)
        cairo_line_to(cr, left + size * 0.48, midY - size * 0.40)
        cairo_line_to(cr, left + size * 0.48, midY + size * 0.40)
        cairo_line_to(cr, left + size * 0.22, midY + size * 0.16)
        cairo_line_to(cr, left, midY + size * 0.16)
        cairo_close_path(cr)
        cairo_fill(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, size * 0.09)
        cairo_new_path(cr)
        if muted {
            let centre = (x: left + size * 0.78, y: midY), arm = size * 0.17
            cairo_move_to(cr, centre.x - arm, centre.y - arm)
            cairo_line_to(cr, centre.x + arm, centre.y + arm)
            cairo_move_to(cr, centre.x + arm, centre.y - arm)
            cairo_line_to(cr, centre.x - arm, centre.y + arm)
        } else {
            for radius in [size * 0.22, size * 0.40] {
                cairo_new_sub_path(cr)
                cairo_arc(cr, left + size * 0.50, midY, radius, -0.9, 0.9)
            }
        }
        cairo_stroke(cr)
    }
}
