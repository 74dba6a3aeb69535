import CCairo
import ZapperCore

/// A radio channel's card (`RadioScreen`): the loading card's look, with "Radio" where
/// the spinner turns, and what is on now and next.
extension OverlayPainter {
    func radio(_ screen: RadioScreen, logo image: CairoImage?) {
        let frame = layout.radio(screen)
        panel(frame.panel, radius: frame.cornerRadius, edge: OverlayStyle.panelEdge)
        channelLogo(image, name: screen.channel.name, in: frame.logo)
        numberAndName(screen.channel, in: frame.header, numberSize: 76, nameSize: 40)
        fill(frame.divider, radius: 0, RGBA.white(0.13))
        let label = Rect(x: frame.status.maxX - units(160), y: frame.status.minY, width: units(160), height: frame.status.height)
        draw("RADIO", Font(size: 22, weight: PANGO_WEIGHT_BOLD, tracking: 2.5), in: label, OverlayStyle.labelText, alignment: .right)
        let lines = [("NOW", screen.now), ("NEXT", screen.next)].compactMap { label, line in line.map { (label, $0) } }
        for (row, (label, line)) in zip(frame.rows, lines) {
            programmeRow(label: label, line, in: row)
        }
    }
}
