import CCairo
import Foundation
import ZapperCore

/// Small vector marks for the panel and the locked card: the focus ring, the
/// check mark, the playing triangle, the hint's chevron, the padlock.
extension OverlayPainter {
    /// A bright rounded outline around the focused tab or row (thicker than a panel's edge).
    func focusRing(_ rect: Rect, radius: Double) {
        let line = units(OverlayLayout.PanelMetrics.ringWidth)
        cairo_new_path(cr)
        roundedRect(rect.insetBy(dx: line / 2, dy: line / 2), radius: radius - line / 2)
        cairo_set_line_width(cr, line)
        set(OverlayStyle.focusRing)
        cairo_stroke(cr)
    }

    /// A check mark filling most of `box`.
    func checkMark(in box: Rect, _ colour: RGBA) {
        let size = min(box.width, box.height)
        let x = box.midX - size / 2, y = box.midY - size / 2
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, size * 0.13)
        cairo_new_path(cr)
        cairo_move_to(cr, x + size * 0.18, y + size * 0.52)
        cairo_line_to(cr, x + size * 0.42, y + size * 0.76)
        cairo_line_to(cr, x + size * 0.84, y + size * 0.26)
        set(colour)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// A "playing" triangle pointing right, centred in `box`.
    func playMark(in box: Rect, _ colour: RGBA) {
        let size = min(box.width, box.height)
        cairo_new_path(cr)
        cairo_move_to(cr, box.midX - size * 0.32, box.midY - size * 0.40)
        cairo_line_to(cr, box.midX + size * 0.42, box.midY)
        cairo_line_to(cr, box.midX - size * 0.32, box.midY + size * 0.40)
        cairo_close_path(cr)
        set(colour)
        cairo_fill(cr)
    }

    /// A chevron pointing up (or down), centred in `box`.
    func chevron(in box: Rect, up: Bool = true, _ colour: RGBA) {
        let size = min(box.width, box.height)
        let tip = up ? -1.0 : 1.0
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, size * 0.14)
        cairo_new_path(cr)
        cairo_move_to(cr, box.midX - size * 0.38, box.midY - tip * size * 0.18)
        cairo_line_to(cr, box.midX, box.midY + tip * size * 0.20)
        cairo_line_to(cr, box.midX + size * 0.38, box.midY - tip * size * 0.18)
        set(colour)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// A padlock: a rounded body and a shackle, centred in `box`.
    func padlock(in box: Rect, _ colour: RGBA) {
        let size = min(box.width, box.height)
        let body = Rect(x: box.midX - size * 0.36, y: box.midY - size * 0.06, width: size * 0.72, height: size * 0.52)
        fill(body, radius: size * 0.08, colour)
        cairo_save(cr)
        cairo_set_line_width(cr, size * 0.11)
        cairo_new_path(cr)
        let radius = size * 0.22
        cairo_move_to(cr, box.midX - radius, body.minY)
        cairo_line_to(cr, box.midX - radius, box.midY - size * 0.22)
        cairo_arc(cr, box.midX, box.midY - size * 0.22, radius, Double.pi, 2 * Double.pi)
        cairo_line_to(cr, box.midX + radius, body.minY)
        set(colour)
        cairo_stroke(cr)
        cairo_restore(cr)
    }
}
