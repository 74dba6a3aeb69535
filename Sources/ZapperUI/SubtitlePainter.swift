import CCairo
import ZapperCore

/// Subtitle cues: each line (long ones wrapped) centred on its own dark box,
/// the last line on the bottom edge of the safe area.
extension OverlayPainter {
    func subtitles(_ cueLines: [String]) {
        let band = layout.subtitles()
        let font = Font(size: band.fontSize / layout.scale)
        let padding = units(18)
        // A line break inside a given line starts a new line too (the layout is single-paragraph).
        let given = cueLines.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
        let lines = Array(given.flatMap { wrappedLines($0, font, width: band.band.width - 2 * padding) }
            .prefix(band.maxLines))
        let boxHeight = band.lineHeight - units(4)
        for (index, line) in lines.enumerated() {
            let top = band.band.maxY - Double(lines.count - index) * band.lineHeight
            let width = min(measure(line, font) + 2 * padding, band.band.width)
            let box = Rect(x: band.band.midX - width / 2, y: top, width: width, height: boxHeight)
            fill(box, radius: units(8), OverlayStyle.subtitleBox)
            draw(line, font, in: box.insetBy(dx: padding, dy: 0), RGBA.white(0.98), alignment: .centre)
        }
    }
}
