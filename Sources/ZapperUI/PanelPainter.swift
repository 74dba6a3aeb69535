import CCairo
import ZapperCore

/// The swipe-up panel: dark glass across the bottom of the safe area, the tab
/// strip along its bottom, the selected tab's page above it, and the focus
/// ring on the focused tab or row.
extension OverlayPainter {
    func swipePanel(_ content: PanelContent, appearance: Double, logo: (ChannelIdentity) -> CairoImage?) {
        let frame = layout.panel(content, appearance: appearance)
        panel(frame.panel, radius: frame.cornerRadius)
        fill(frame.divider, radius: 0, RGBA.white(0.13))
        tabStrip(content, frame: frame)

        switch content.page {
        case .channels(let rows):
            channelList(rows, frame: frame, focusedRow: content.focusedRow, logo: logo)
        case .info(let info):
            if let boxes = frame.info { programmeInfo(info, in: boxes) }
        case .choices(let choices):
            choiceList(choices, frame: frame, focusedRow: content.focusedRow)
        case .phone(let invite):
            if let boxes = frame.phone { phonePage(invite, in: boxes) }
        }
        if let above = frame.moreAbove { chevron(in: above, up: true, OverlayStyle.labelText) }
        if let below = frame.moreBelow { chevron(in: below, up: false, OverlayStyle.labelText) }
        if let ring = frame.focusRing {
            focusRing(ring, radius: frame.ringRadius)
        }
    }

    /// "Channels  Info  Audio  Subtitles  Picture": the selected tab on a soft
    /// pill in bold; a brighter pill when the focus is on it.
    private func tabStrip(_ content: PanelContent, frame: OverlayLayout.Panel) {
        let radius = units(14)
        for (tab, box) in zip(content.tabs, frame.tabs) {
            let selected = tab == content.selectedTab
            if selected {
                fill(box, radius: radius, content.focusedItem == nil ? OverlayStyle.focusFill : OverlayStyle.selectedTab)
            }
            draw(tab.title, Font(size: 30, weight: selected ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL),
                 in: box.insetBy(dx: units(12), dy: 0),
                 selected ? OverlayStyle.primaryText : OverlayStyle.secondaryText, alignment: .centre)
        }
    }

    /// The soft fill behind the focused row (the ring is drawn over everything last).
    func rowBackground(_ row: Rect, focused: Bool) {
        if focused { fill(row, radius: units(14), OverlayStyle.focusFill) }
    }
}
