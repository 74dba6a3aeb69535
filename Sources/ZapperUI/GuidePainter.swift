import CCairo
import ZapperCore

/// The full-screen guide: the picture dimmed behind it, the focused programme's details
/// across the top, the half-hour labels, then a row per visible channel (number, logo,
/// name) with its programmes as tiles along the two hours; the focused tile ringed, what
/// is on now a little brighter, a bell on reminders, and a line at "now".
extension OverlayPainter {
    static let guideDim = RGBA(0.03, 0.04, 0.06, 0.84)
    static let guideTile = RGBA.white(0.09)
    static let guideNowTile = RGBA.white(0.15)
    static let guideGapTile = RGBA.white(0.04)

    func guideGrid(_ content: GuideGridContent, logo: (ChannelIdentity) -> CairoImage?) {
        guideRegion(layout.screen, content, logo: logo)
    }

    /// Draws what of the guide falls in `region` over whatever was there (the backdrop
    /// replaces it): each part that reaches into it, clipped to it. `GuideCanvas` repaints
    /// only what a key changed this way.
    func guideRegion(_ region: Rect, _ content: GuideGridContent, logo: (ChannelIdentity) -> CairoImage?) {
        let frame = layout.guideGrid()
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, region.x, region.y, region.width, region.height)
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        set(Self.guideDim)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        if region.intersection(guideDetailsBounds(frame)) != nil { guideDetails(content, frame: frame) }
        if region.intersection(guideHeaderBand(frame)) != nil { guideHeader(content, frame: frame) }
        for (row, box) in zip(content.rows, frame.rows) where region.intersection(box) != nil {
            guideRow(row, in: box, frame: frame, logo: logo(row.channel))
        }
        guideNowLine(content, frame: frame)
    }

    /// The details panel with its shadow.
    func guideDetailsBounds(_ frame: OverlayLayout.GuideGrid) -> Rect {
        let reach = units(OverlayLayout.shadowReach)
        return frame.details.insetBy(dx: -reach, dy: -reach)
    }

    /// The band of the day line and the half hours, across the channels' column too.
    func guideHeaderBand(_ frame: OverlayLayout.GuideGrid) -> Rect {
        Rect(x: frame.details.minX, y: frame.header.minY, width: frame.header.maxX - frame.details.minX, height: frame.header.height)
    }

    /// The day and the half hours over the programmes' columns.
    private func guideHeader(_ content: GuideGridContent, frame: OverlayLayout.GuideGrid) {
        let column = frame.header.width / Double(content.columns.count)
        for (index, label) in content.columns.enumerated() {
            let box = Rect(x: frame.header.minX + Double(index) * column + units(10), y: frame.header.minY,
                           width: column - units(20), height: frame.header.height)
            draw(label, Font(size: 26, weight: PANGO_WEIGHT_BOLD), in: box, OverlayStyle.secondaryText)
        }
        let dayBox = Rect(x: frame.details.minX + units(24), y: frame.header.minY, width: frame.channelWidth - units(24), height: frame.header.height)
        draw(content.day.uppercased() + (content.position.map { "  ·  " + $0 } ?? ""), Font(size: 20, weight: PANGO_WEIGHT_BOLD, tracking: 2),
             in: dayBox, OverlayStyle.labelText)
    }

    private func guideNowLine(_ content: GuideGridContent, frame: OverlayLayout.GuideGrid) {
        if let now = content.nowAt, let last = frame.rows.prefix(content.rows.count).last {
            let x = frame.grid.minX + frame.grid.width * min(max(now, 0), 1)
            let line = Rect(x: x - units(1.5), y: frame.header.minY, width: units(3), height: last.maxY - frame.header.minY)
            fill(line, radius: 0, OverlayStyle.liveAccent)
            fill(Rect(x: x - units(7), y: frame.header.minY, width: units(14), height: units(14)), radius: units(7), OverlayStyle.liveAccent)
        }
    }

    private func guideDetails(_ content: GuideGridContent, frame: OverlayLayout.GuideGrid) {
        let details = content.details
        panel(frame.details, radius: frame.cornerRadius * 1.5)
        draw(details.channel, Font(size: 26, weight: PANGO_WEIGHT_BOLD), in: frame.channelLine, OverlayStyle.secondaryText)
        draw(details.title, Font(size: 46, weight: PANGO_WEIGHT_BOLD), in: frame.title, OverlayStyle.primaryText)
        let sub = [details.subTitle, details.when, details.rating].compactMap { $0 }.joined(separator: "   ·   ")
        draw(sub, Font(size: 28), in: frame.subLine, OverlayStyle.secondaryText)
        if let description = details.description {
            drawWrapped(description, Font(size: 25), in: frame.description, OverlayStyle.secondaryText, maxLines: 2)
        }
        if let progress = details.progress { progressBar(frame.progress, progress) }
        if let hint = details.hint {
            draw(hint, Font(size: 24, weight: PANGO_WEIGHT_BOLD), in: frame.hint, OverlayStyle.labelText, alignment: .right)
        }
    }

    private func guideRow(_ row: GuideGridContent.Row, in box: Rect, frame: OverlayLayout.GuideGrid, logo image: CairoImage?) {
        let channel = Rect(x: box.minX, y: box.minY, width: frame.channelWidth, height: box.height)
        fill(channel, radius: frame.cornerRadius, row.playing ? OverlayStyle.focusFill : Self.guideTile)
        // The logo, then the number over the name (the name gets the column's width).
        let logoBox = Rect(x: channel.minX + units(12), y: channel.midY - frame.logo.height / 2, width: frame.logo.width, height: frame.logo.height)
        self.logo(image, name: row.channel.name, in: logoBox)
        let textX = logoBox.maxX + units(16), textWidth = channel.maxX - logoBox.maxX - units(28)
        draw((row.favourite ? "★ " : "") + String(row.channel.number), Font(size: 23, weight: PANGO_WEIGHT_BOLD),
             in: Rect(x: textX, y: channel.minY + units(6), width: textWidth, height: channel.height / 2 - units(6)),
             row.playing ? OverlayStyle.liveAccent : OverlayStyle.secondaryText)
        draw(row.channel.listedName, Font(size: 26, weight: PANGO_WEIGHT_BOLD),
             in: Rect(x: textX, y: channel.midY, width: textWidth, height: channel.height / 2 - units(8)), OverlayStyle.primaryText)
        for cell in row.cells {
            let from = frame.grid.minX + frame.grid.width * cell.from, to = frame.grid.minX + frame.grid.width * cell.to
            let tile = Rect(x: from + frame.gap / 2, y: box.minY, width: max(0, to - from - frame.gap), height: box.height)
            guard tile.width > units(4) else { continue }
            fill(tile, radius: frame.cornerRadius, cell.focused ? OverlayStyle.focusFill
                 : cell.isGap ? Self.guideGapTile : cell.onNow ? Self.guideNowTile : Self.guideTile)
            var text = tile.insetBy(dx: units(16), dy: 0)
            if cell.reminder {
                bell(in: Rect(x: text.minX, y: tile.midY - units(13), width: units(26), height: units(26)), OverlayStyle.liveAccent)
                text = Rect(x: text.minX + units(34), y: text.minY, width: text.width - units(34), height: text.height)
            }
            draw(cell.title, Font(size: 26, weight: cell.focused ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL), in: text,
                 cell.isGap ? OverlayStyle.labelText : OverlayStyle.primaryText)
            if cell.focused { focusRing(tile, radius: frame.cornerRadius) }
        }
    }

    /// A small bell: a reminder is set.
    func bell(in box: Rect, _ colour: RGBA) {
        let size = min(box.width, box.height)
        cairo_new_path(cr)
        cairo_move_to(cr, box.midX - size * 0.38, box.midY + size * 0.22)
        cairo_curve_to(cr, box.midX - size * 0.30, box.midY + size * 0.05, box.midX - size * 0.34, box.midY - size * 0.42,
                       box.midX, box.midY - size * 0.42)
        cairo_curve_to(cr, box.midX + size * 0.34, box.midY - size * 0.42, box.midX + size * 0.30, box.midY + size * 0.05,
                       box.midX + size * 0.38, box.midY + size * 0.22)
        cairo_close_path(cr)
        set(colour)
        cairo_fill(cr)
        cairo_arc(cr, box.midX, box.midY + size * 0.32, size * 0.11, 0, 2 * Double.pi)
        cairo_fill(cr)
    }
}
