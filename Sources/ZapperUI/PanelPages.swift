import CCairo
import ZapperCore

/// The panel's pages: the channel list, the programme info, the choices.
extension OverlayPainter {
    // MARK: Channels

    /// Group headings and channel lines: playing mark, logo, number, name, what is on now.
    func channelList(_ rows: [PanelChannelRow], frame: OverlayLayout.Panel, focusedRow: Int?,
                     logo: (ChannelIdentity) -> CairoImage?) {
        guard !rows.isEmpty else {
            emptyPage("No channels", in: frame.rows.first)
            return
        }
        for (offset, box) in frame.rows.enumerated() {
            let index = frame.firstRow + offset
            guard rows.indices.contains(index) else { break }
            switch rows[index] {
            case .group(let title):
                let label = Rect(x: box.minX + units(16), y: box.minY, width: box.width - units(32), height: box.height)
                draw(title.uppercased(), Font(size: 20, weight: PANGO_WEIGHT_BOLD, tracking: 2.5), in: label,
                     OverlayStyle.labelText, baseline: box.maxY - units(14))
                fill(Rect(x: label.minX, y: box.maxY - units(4), width: label.width, height: max(1, units(1.5))),
                     radius: 0, RGBA.white(0.10))
            case .channel(let line):
                rowBackground(box, focused: index == focusedRow)
                channelLine(line, logo: logo(line.channel), in: box)
            }
        }
    }

    private func channelLine(_ line: PanelChannelLine, logo image: CairoImage?, in row: Rect) {
        func column(_ x: Double, _ width: Double) -> Rect {
            Rect(x: row.minX + units(x), y: row.minY, width: units(width), height: row.height)
        }
        if line.isPlaying {
            playMark(in: column(14, 22).insetBy(dx: 0, dy: units(19)), OverlayStyle.liveAccent)
        }
        let logoBox = column(48, 88).insetBy(dx: 0, dy: units(8))
        if let image {
            logo(image, name: line.channel.name, in: logoBox)
        } else {
            initialsBadge(name: line.channel.name, in: logoBox)
        }
        draw(String(line.channel.number), Font(size: 30, weight: PANGO_WEIGHT_BOLD), in: column(152, 84),
             OverlayStyle.secondaryText)
        // The name takes the row's free width: all of it when nothing is known to be on, else
        // at least 460 units and as much of 60 % of the row as it needs; the programme the rest.
        let nameFont = Font(size: 30, weight: PANGO_WEIGHT_BOLD)
        let free = row.width / layout.scale - 244 - 60
        let name = line.channel.listedName
        guard let now = line.now else {
            draw(name, nameFont, in: column(244, free), OverlayStyle.primaryText)
            return
        }
        let nameWidth = min(max(460, measure(name, nameFont) / layout.scale + 8), max(460, free * 0.6))
        draw(name, nameFont, in: column(244, nameWidth), OverlayStyle.primaryText)
        let start = 244 + nameWidth + 20
        draw(now, Font(size: 26), in: column(start, row.width / layout.scale - start - 60), OverlayStyle.secondaryText)
    }

    // MARK: Info

    /// Channel and rating, title, sub-title, description (a few lines), time and progress.
    func programmeInfo(_ info: PanelProgrammeInfo, in boxes: OverlayLayout.PanelInfo) {
        let headerFont = Font(size: 26, weight: PANGO_WEIGHT_BOLD)
        let nameWidth = min(measure(info.channelName, headerFont), boxes.header.width * 0.7)
        draw(info.channelName, headerFont, in: Rect(x: boxes.header.minX, y: boxes.header.minY, width: nameWidth,
                                                   height: boxes.header.height), OverlayStyle.secondaryText)
        if let rating = info.rating, !rating.isEmpty {
            ratingBadge(rating, left: boxes.header.minX + nameWidth + units(20), row: boxes.header)
        }
        guard let title = info.title else {
            draw("No programme information", Font(size: 40, weight: PANGO_WEIGHT_BOLD), in: boxes.title,
                 OverlayStyle.secondaryText)
            return
        }
        draw(title, Font(size: 46, weight: PANGO_WEIGHT_BOLD), in: boxes.title, OverlayStyle.primaryText)
        if let subtitle = info.subtitle {
            draw(subtitle, Font(size: 30), in: boxes.subtitle, OverlayStyle.secondaryText)
        }
        if let description = info.description {
            drawWrapped(description, Font(size: 26), in: boxes.description, OverlayStyle.primaryText.with(alpha: 0.82),
                        maxLines: boxes.descriptionLines)
        }
        if let time = info.timeRange {
            draw(time, Font(size: 26), in: boxes.time, OverlayStyle.secondaryText)
        }
        if let progress = info.progress {
            progressBar(boxes.progressBar, progress)
        }
    }

    /// The rating in an outlined rounded box, its left edge at `left`, centred on `row`.
    private func ratingBadge(_ rating: String, left: Double, row: Rect) {
        let font = Font(size: 22, weight: PANGO_WEIGHT_BOLD)
        let width = min(measure(rating, font) + units(24), max(0, row.maxX - left))
        guard width > 0 else { return }
        let badge = Rect(x: left, y: row.midY - units(17), width: width, height: units(34))
        let line = max(1, units(2))
        cairo_new_path(cr)
        roundedRect(badge.insetBy(dx: line / 2, dy: line / 2), radius: units(7))
        cairo_set_line_width(cr, line)
        set(RGBA.white(0.75))
        cairo_stroke(cr)
        draw(rating, font, in: badge.insetBy(dx: units(10), dy: 0), OverlayStyle.primaryText, alignment: .centre)
    }

    /// A track and how much of it is done, 0…1 (clamped).
    func progressBar(_ bar: Rect, _ progress: Double) {
        fill(bar, radius: bar.height / 2, RGBA.white(0.18))
        let done = min(max(progress.isNaN ? 0 : progress, 0), 1)
        if done > 0 {
            fill(Rect(x: bar.minX, y: bar.minY, width: max(bar.height, bar.width * done), height: bar.height),
                 radius: bar.height / 2, RGBA.white(0.92))
        }
    }

    // MARK: Choices

    /// Audio, subtitles or picture: a check mark on the current one, the label, its detail.
    func choiceList(_ choices: [PanelChoice], frame: OverlayLayout.Panel, focusedRow: Int?) {
        guard !choices.isEmpty else {
            emptyPage("None available", in: frame.rows.first)
            return
        }
        // Details line up in one column after the longest label shown.
        let shownChoices = choices.dropFirst(frame.firstRow).prefix(frame.rows.count)
        let labelColumn = shownChoices.map { measure($0.label, Font(size: 30, weight: PANGO_WEIGHT_BOLD)) }.max() ?? 0
        for (offset, box) in frame.rows.enumerated() {
            let index = frame.firstRow + offset
            guard choices.indices.contains(index) else { break }
            let choice = choices[index]
            rowBackground(box, focused: index == focusedRow)
            if choice.isCurrent {
                checkMark(in: Rect(x: box.minX + units(14), y: box.midY - units(17), width: units(34), height: units(34)),
                          OverlayStyle.liveAccent)
            }
            let labelFont = Font(size: 30, weight: choice.isCurrent ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
            let left = box.minX + units(64)
            let room = box.maxX - left - units(20)
            let labelWidth = min(labelColumn, choice.detail == nil ? room : room * 0.6)
            draw(choice.label, labelFont, in: Rect(x: left, y: box.minY, width: labelWidth, height: box.height),
                 OverlayStyle.primaryText)
            if let detail = choice.detail {
                let gap = units(20)
                draw(detail, Font(size: 26), in: Rect(x: left + labelWidth + gap, y: box.minY,
                                                     width: room - labelWidth - gap, height: box.height),
                     OverlayStyle.secondaryText)
            }
        }
    }

    private func emptyPage(_ message: String, in row: Rect?) {
        guard let row else { return }
        draw(message, Font(size: 28), in: row.insetBy(dx: units(16), dy: 0), OverlayStyle.secondaryText)
    }
}
