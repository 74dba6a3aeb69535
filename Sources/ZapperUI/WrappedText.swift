import CCairo
import Foundation
import ZapperCore

/// Text over more than one line: a wrapped paragraph, and the lines a string
/// wraps into (subtitles draw each on its own box).
extension OverlayPainter {
    /// Draws `string` from the top of `rect`, wrapped to its width, at most
    /// `maxLines` lines, the last one ellipsized when the text goes on.
    func drawWrapped(_ string: String, _ font: Font, in rect: Rect, _ colour: RGBA, maxLines: Int,
                     alignment: Alignment = .left) {
        guard rect.width > 0, maxLines > 0 else { return }
        prepare(string, font, width: rect.width, alignment: alignment)
        pango_layout_set_wrap(text, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_height(text, -Int32(maxLines))
        defer {
            pango_layout_set_height(text, -1)
            pango_layout_set_wrap(text, PANGO_WRAP_WORD)
        }
        set(colour)
        cairo_move_to(cr, rect.minX, rect.minY)
        pango_cairo_show_layout(cr, text)
    }

    /// The lines `string` wraps into at `width` (words kept whole where they fit), in order.
    func wrappedLines(_ string: String, _ font: Font, width: Double) -> [String] {
        guard width > 0 else { return [] }
        prepare(string, font, width: width, alignment: .left)
        pango_layout_set_ellipsize(text, PANGO_ELLIPSIZE_NONE)
        pango_layout_set_wrap(text, PANGO_WRAP_WORD_CHAR)
        defer { pango_layout_set_wrap(text, PANGO_WRAP_WORD) }
        let bytes = Array(string.utf8)
        var lines: [String] = []
        for index in 0..<pango_layout_get_line_count(text) {
            guard let line = pango_layout_get_line_readonly(text, index) else { continue }
            let start = Int(line.pointee.start_index), length = Int(line.pointee.length)
            guard start >= 0, length >= 0, start + length <= bytes.count else { continue }
            let piece = String(decoding: bytes[start..<start + length], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if !piece.isEmpty { lines.append(piece) }
        }
        return lines
    }
}
