import CCairo
import ZapperCore

/// The panel's Phone tab: what to do in words on the left, the code a phone's camera reads on
/// the right, dark modules on white with the four-module light margin QR codes need.
extension OverlayPainter {
    func phonePage(_ invite: PanelPhoneInvite, in boxes: OverlayLayout.PanelPhone) {
        draw("Use your phone as a remote", Font(size: 46, weight: PANGO_WEIGHT_BOLD), in: boxes.title,
             OverlayStyle.primaryText)
        let symbol = invite.link.flatMap(QRSymbol.init)
        if let problem = invite.problem ?? (symbol == nil ? "This box has no link a phone could open." : nil) {
            draw(invite.address, Font(size: 30), in: boxes.line, OverlayStyle.secondaryText)
            let below = Rect(x: boxes.address.minX, y: boxes.address.minY, width: boxes.address.width,
                             height: boxes.note.maxY - boxes.address.minY)
            drawWrapped(problem, Font(size: 30), in: below, OverlayStyle.primaryText.with(alpha: 0.86), maxLines: 4)
            return
        }
        draw("Point the phone's camera at the code, then open the link it shows:", Font(size: 30), in: boxes.line,
             OverlayStyle.secondaryText)
        draw(invite.address, Font(size: 30, weight: PANGO_WEIGHT_BOLD), in: boxes.address, OverlayStyle.primaryText)
        drawWrapped("The code holds this box's API token: whoever scans it can change the channel and the volume.",
                    Font(size: 26), in: boxes.note, OverlayStyle.primaryText.with(alpha: 0.82), maxLines: 3)
        if let symbol { qrCode(symbol, in: boxes.code) }
    }

    /// Whole pixels per module, so every module is as sharp as the screen allows.
    private func qrCode(_ symbol: QRSymbol, in box: Rect) {
        let side = min(box.width, box.height)
        let modules = symbol.size + 8
        let pixel = max(1, (side / Double(modules)).rounded(.down))
        let drawn = pixel * Double(modules)
        let left = (box.minX + (box.width - drawn) / 2).rounded(.down)
        let top = (box.minY + (box.height - drawn) / 2).rounded(.down)
        fill(Rect(x: left, y: top, width: drawn, height: drawn), radius: 0, RGBA(1, 1, 1))
        set(RGBA(0, 0, 0))
        for row in 0..<symbol.size {
            for column in 0..<symbol.size where symbol.dark[row * symbol.size + column] {
                cairo_rectangle(cr, left + pixel * Double(column + 4), top + pixel * Double(row + 4), pixel, pixel)
            }
        }
        cairo_fill(cr)
    }
}
