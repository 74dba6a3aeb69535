import Foundation
import ZapperCore

/// The full-screen guide: opened by the guide key (`KEY_EPG`, `KEY_PROGRAM`, `G`), the
/// favourites first and then the lineup down, two hours across; its keys move the focus
/// (`GuideGridNavigator`), digits jump to a channel, OK tunes what is on now or sets a
/// reminder on what is to come. The picture plays on, dimmed, under it.
extension Player {
    /// Closes by itself after this long without a key (a guide left open on a lobby screen).
    static let guideIdleMilliseconds = 120_000

    /// Gives an action to the guide; true when it took it (opening it counts).
    func guideTakes(_ action: Action, now: Int) -> Bool {
        guard var grid = guideGrid else {
            guard action == .guide, panelAllowed else { return false }
            openGuide(now: now)
            return true
        }
        guideTouched = now
        switch action {
        case .volumeUp, .volumeDown, .mute:
            return false
        case .digit(let digit):
            jumpInGuide(digit, grid: &grid, now: now)
            guideGrid = grid
            focusMoved()
            return true
        case .favourite:
            if let number = guideRows[safe: grid.row] { toggleFavourite(number) }
            return true
        default:
            break
        }
        let outcome = grid.handle(action) { row, from, to in programmes(row: row, from: from, to: to) }
        guideGrid = grid
        switch outcome {
        case .unhandled, .none:
            break
        case .moved:
            focusMoved()
        case .closed:
            closeGuide(.key)
        case let .chosen(row, programme):
            choose(row: row, programme, now: now)
        }
        return true
    }

    func openGuide(now: Int) {
        if panel.isOpen {
            panel.close()
            log.emit(.panelClosed(reason: .key))
        }
        // The favourites, then the lineup once (a channel in several groups is one row).
        let shown = lineup.filter { !options.hiddenFromPanel.contains($0.number) }
        guideRows = favourites.numbers(in: shown) + shown.map(\.number)
        let playing = tuner.view.tuned ?? tuner.view.target
        // The playing channel in its own place in the lineup, not under Favourites.
        let layout = OverlayLayout(width: screen.output.width, height: screen.output.height)
        guideGrid = GuideGridNavigator(rowCount: guideRows.count, row: guideRows.lastIndex(of: playing) ?? 0,
                                       now: clock.date, visibleRows: layout.guideRows, span: guide?.timeSpan)
        guideTouched = now
        guideEntry = nil
        log.emit(.guideOpened(channel: guideRows[safe: guideGrid?.row ?? 0] ?? playing))
    }

    func closeGuide(_ reason: PlayerEvent.PanelCloseReason) {
        guard guideGrid != nil else { return }
        guideGrid = nil
        log.emit(.guideClosed(reason: reason))
    }

    /// Closes the guide after its idle time.
    func guideTick(now: Int) {
        if guideGrid != nil, now - guideTouched >= Self.guideIdleMilliseconds { closeGuide(.inactive) }
    }

    func programmes(row: Int, from: Date, to: Date) -> [Programme] {
        guard let number = guideRows[safe: row] else { return [] }
        return guide?.programmes(for: channels[number], from: from, to: to) ?? []
    }

    /// The focused programme (nil: a gap) of the focused row.
    var guideFocus: (row: Int, programme: Programme?)? {
        guard let grid = guideGrid else { return nil }
        return (grid.row, grid.focused(in: programmes(row: grid.row, from: grid.anchor, to: grid.anchor + 1)))
    }

    private func focusMoved() {
        guard let grid = guideGrid, let focus = guideFocus, let number = guideRows[safe: focus.row] else { return }
        let start = focus.programme?.start ?? GuideGridNavigator.floor(grid.anchor)
        log.emit(.guideFocus(channel: number, start: Int(start.timeIntervalSince1970), title: focus.programme?.title ?? ""))
    }

    private func jumpInGuide(_ digit: Int, grid: inout GuideGridNavigator, now: Int) {
        let typed = guideEntry.map { now - $0.at <= options.tuner.entryTimeout ? $0.digits : "" } ?? ""
        let digits = String((typed + String(digit)).suffix(options.tuner.maxDigits))
        guideEntry = (digits, now)
        // The channel's place in the lineup part (after the favourites), or the next number there is.
        let lineupPart = guideRows.count - lineup.count(where: { !options.hiddenFromPanel.contains($0.number) })
        let numbers = Array(guideRows.dropFirst(lineupPart))
        guard let number = Int(digits), let index = PanelNavigator.item(for: number, in: numbers) else { return }
        grid.focus(row: lineupPart + index)
    }

    /// OK: what is on now (or a gap now) is tuned, through the card; a programme to come gets
    /// a reminder, or loses it.
    private func choose(row: Int, _ programme: Programme?, now: Int) {
        guard let number = guideRows[safe: row] else { return }
        let date = clock.date
        if let programme, programme.start > date {
            toggleReminder(channel: number, programme)
        } else if programme.map({ $0.isOn(at: date) }) ?? true {
            closeGuide(.chosen)
            apply(tuner.handle(.select(number), now: now))
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
