import CCairo
import ZapperCore

/// The overlay's elements, each drawn from a content value, the layout of the
/// screen and how far the element has appeared (positions come from
/// `OverlayLayout`; fading is the renderer's job).
extension OverlayPainter {
    // MARK: Interstitial card (loading and error)

    /// Without `spinner`, a loading card leaves the spinner's place empty (the renderer draws it over the card's image).
    func interstitial(_ card: InterstitialCard, logo image: CairoImage?, appearance: Double, spinner drawsSpinner: Bool = true) {
        let frame = layout.card(appearance: appearance)
        let failed = card.isFailed
        panel(frame.panel, radius: frame.cornerRadius,
              edge: failed ? OverlayStyle.errorAccent.with(alpha: 0.7) : OverlayStyle.panelEdge)
        channelLogo(image, name: card.channel.name, in: frame.logo)
        numberAndName(card.channel, in: frame.header, numberSize: 76, nameSize: 40)
        fill(frame.divider, radius: 0, failed ? OverlayStyle.errorAccent.with(alpha: 0.45) : RGBA.white(0.13))

        switch card.status {
        case .loading(let phase):
            if drawsSpinner { spinner(in: frame.status, phase: phase) }
            let lines = [("NOW", card.now), ("NEXT", card.next)].compactMap { label, line in line.map { (label, $0) } }
            for (row, (label, line)) in zip(frame.rows, lines.prefix(card.note == nil ? 2 : 1)) {
                programmeRow(label: label, line, in: row)
            }
            if let note = card.note {
                draw(note, Font(size: 27), in: frame.rows[1], OverlayStyle.errorAccent.with(alpha: 0.95))
            }
        case .failed(let reason, let seconds):
            errorIcon(in: frame.status, colour: OverlayStyle.errorAccent)
            draw(reason, Font(size: 32, weight: PANGO_WEIGHT_BOLD), in: frame.rows[0], OverlayStyle.primaryText)
            if let retry = InterstitialCard.retryLine(seconds: seconds) {
                draw(retry, Font(size: 27), in: frame.rows[1], OverlayStyle.errorAccent.with(alpha: 0.95))
            }
        }
    }

    /// The logo on a soft tile, or the initials badge in its place.
    func channelLogo(_ image: CairoImage?, name: String, in box: Rect) {
        if image != nil {
            fill(box, radius: units(24), OverlayStyle.tile)
            logo(image, name: name, in: box.insetBy(dx: units(18), dy: units(18)))
        } else {
            initialsBadge(name: name, in: box.insetBy(dx: units(6), dy: units(6)))
        }
    }

    /// "42  Channel Name": the number large, the name after it on the same baseline.
    func numberAndName(_ channel: ChannelIdentity, in row: Rect, numberSize: Double, nameSize: Double) {
        let baseline = row.maxY - units(numberSize * 0.26)
        let numberFont = Font(size: numberSize, weight: PANGO_WEIGHT_BOLD)
        let number = String(channel.number)
        let numberWidth = min(measure(number, numberFont), row.width / 2)
        draw(number, numberFont, in: Rect(x: row.minX, y: row.minY, width: numberWidth, height: row.height),
             OverlayStyle.primaryText, baseline: baseline)
        let gap = units(nameSize * 0.6)
        let nameRect = Rect(x: row.minX + numberWidth + gap, y: row.minY,
                            width: row.width - numberWidth - gap, height: row.height)
        draw(channel.name, Font(size: nameSize, weight: PANGO_WEIGHT_BOLD), in: nameRect,
             OverlayStyle.primaryText.with(alpha: 0.9), baseline: baseline)
    }

    /// "NOW   20:00 – 21:00   Title of the programme…"
    func programmeRow(label: String, _ line: ProgrammeLine, in row: Rect) {
        let labelWidth = units(OverlayLayout.labelColumn)
        draw(label, Font(size: 19, weight: PANGO_WEIGHT_BOLD, tracking: 2.5),
             in: Rect(x: row.minX, y: row.minY, width: labelWidth, height: row.height), OverlayStyle.labelText)
        let timeFont = Font(size: 26)
        let time = line.timeRange
        let timeWidth = min(measure(time, timeFont), row.width * 0.4)
        let timeRect = Rect(x: row.minX + labelWidth, y: row.minY, width: timeWidth, height: row.height)
        draw(time, timeFont, in: timeRect, OverlayStyle.secondaryText)
        let gap = units(22)
        draw(line.title, Font(size: 28), in: Rect(x: timeRect.maxX + gap, y: row.minY,
                                                 width: row.maxX - timeRect.maxX - gap, height: row.height),
             OverlayStyle.primaryText)
    }

    // MARK: Banner after a zap

    func banner(_ banner: ChannelBanner, logo image: CairoImage?, appearance: Double) {
        let frame = layout.banner(appearance: appearance)
        panel(frame.panel, radius: frame.cornerRadius)
        channelLogo(image, name: banner.channel.name, in: frame.logo)
        numberAndName(banner.channel, in: frame.header, numberSize: 58, nameSize: 38)

        if let next = banner.next {
            let contentFont = Font(size: 26)
            let content = "\(next.start)  \(next.title)"
            let labelWidth = units(OverlayLayout.labelColumn)
            let width = min(measure(content, contentFont), frame.next.width - labelWidth)
            let contentRect = Rect(x: frame.next.maxX - width, y: frame.next.minY, width: width, height: frame.next.height)
            draw(content, contentFont, in: contentRect, OverlayStyle.secondaryText)
            draw("NEXT", Font(size: 19, weight: PANGO_WEIGHT_BOLD, tracking: 2.5),
                 in: Rect(x: contentRect.minX - labelWidth, y: frame.next.minY, width: labelWidth, height: frame.next.height),
                 OverlayStyle.labelText)
        }
        guard let now = banner.now else { return }
        let row = frame.row
        let timeFont = Font(size: 26)
        let timeWidth = min(measure(now.timeRange, timeFont), row.width * 0.3)
        draw(now.timeRange, timeFont, in: Rect(x: row.minX, y: row.minY, width: timeWidth, height: row.height),
             OverlayStyle.secondaryText)
        let gap = units(24)
        draw(now.title, Font(size: 30, weight: PANGO_WEIGHT_BOLD),
             in: Rect(x: row.minX + timeWidth + gap, y: row.minY, width: row.width - timeWidth - gap, height: row.height),
             OverlayStyle.primaryText)

        if let progress = banner.progress {
            let bar = frame.progressBar
            fill(bar, radius: bar.height / 2, RGBA.white(0.18))
            let done = min(max(progress.isNaN ? 0 : progress, 0), 1)
            if done > 0 {
                let filled = Rect(x: bar.minX, y: bar.minY, width: max(bar.height, bar.width * done), height: bar.height)
                fill(filled, radius: bar.height / 2, RGBA.white(0.92))
            }
        }
    }

    // MARK: Logo bug and digits

    /// The logo small at the top-left of the safe area, slightly see-through as
    /// broadcasters do; the initials badge when there is no logo.
    func logoBug(_ channel: ChannelIdentity, logo image: CairoImage?, appearance: Double) {
        let box = layout.logoBug(appearance: appearance)
        if let image {
            // Fitted, then pulled to the box's left edge (the safe area's corner).
            let fit = min(box.width / Double(image.width), box.height / Double(image.height))
            let fitted = Rect(x: box.minX, y: box.minY, width: Double(image.width) * fit, height: Double(image.height) * fit)
            logo(image, name: channel.name, in: fitted, opacity: 0.85)
        } else {
            initialsBadge(name: channel.name, in: Rect(x: box.minX, y: box.minY, width: box.height, height: box.height),
                          opacity: 0.85)
        }
    }

    /// "4 2 _": typed digits large, empty slots as bars, the next one brighter.
    func digits(_ entry: DigitEntry, appearance: Double) {
        let frame = layout.digits(slots: entry.slots, appearance: appearance)
        panel(frame.panel, radius: frame.cornerRadius)
        let cells = entry.cells
        let cursor = cells.firstIndex { $0 == nil }
        for (index, cell) in frame.cells.enumerated() {
            fill(cell, radius: units(14), RGBA.white(0.06))
            if let digit = cells[index] {
                draw(digit, Font(size: 66, weight: PANGO_WEIGHT_BOLD), in: cell, OverlayStyle.primaryText,
                     alignment: .centre)
            } else {
                let bar = Rect(x: cell.midX - cell.width * 0.3, y: cell.maxY - units(22),
                               width: cell.width * 0.6, height: units(6))
                fill(bar, radius: bar.height / 2, RGBA.white(index == cursor ? 0.92 : 0.3))
            }
        }
    }
}
