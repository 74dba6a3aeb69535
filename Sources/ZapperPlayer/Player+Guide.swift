import Foundation
import ZapperCore

/// The full-screen guide (opened by `KEY_EPG`, `KEY_PROGRAM`, `G`): a `GuideLayer` (its rules
/// are there) whose effects are carried out here. The picture plays on, dimmed, under it.
extension Player {
    /// Gives an action to the guide; true when it took it (opening it counts).
    func guideTakes(_ action: Action, now: Int) -> Bool {
        guard let effects = guideLayer.take(action, now: now, in: guideContext) else { return false }
        carry(effects, now: now)
        return true
    }

    func openGuide(now: Int) {
        carry(guideLayer.open(guideOpening(), now: now, date: clock.date), now: now)
    }

    func closeGuide(_ reason: PlayerEvent.PanelCloseReason) {
        carry(guideLayer.close(reason), now: log.now)
    }

    /// Closes the guide after its idle time.
    func guideTick(now: Int) {
        carry(guideLayer.tick(now: now, in: guideContext), now: now)
    }

    /// The guide's focus (nil: closed) and its rows' channel numbers.
    var guideGrid: GuideGridNavigator? { guideLayer.grid }
    var guideRows: [Int] { guideLayer.rows }

    func programmes(row: Int, from: Date, to: Date) -> [Programme] {
        guard let number = guideRows[safe: row] else { return [] }
        return programmes(channel: number, from: from, to: to)
    }

    /// The focused programme (nil: a gap) of the focused row.
    var guideFocus: (row: Int, programme: Programme?)? {
        guard let grid = guideGrid else { return nil }
        return (grid.row, grid.focused(in: programmes(row: grid.row, from: grid.anchor, to: grid.anchor + 1)))
    }

    private func carry(_ effects: [GuideLayer.Effect], now: Int) {
        for effect in effects {
            switch effect {
            case .closePanel: carry(panel.close(.key), now: now)
            case .opened(let channel): log.emit(.guideOpened(channel: channel))
            case .closed(let reason): log.emit(.guideClosed(reason: reason))
            case let .focus(channel, start, title): log.emit(.guideFocus(channel: channel, start: start, title: title))
            case .favourite(let channel): toggleFavourite(channel)
            case let .reminder(channel, programme): toggleReminder(channel: channel, programme)
            case .tune(let channel): apply(tuner.handle(.select(channel), now: now))
            }
        }
    }

    private var guideContext: GuideLayer.Context {
        GuideLayer.Context(mayOpen: panelAllowed, date: clock.date, opening: guideOpening) { number, from, to in
            self.programmes(channel: number, from: from, to: to)
        }
    }

    private func guideOpening() -> GuideLayer.Opening {
        let shown = lineup.filter { !options.hiddenFromPanel.contains($0.number) }
        let layout = OverlayLayout(width: screen.output.width, height: screen.output.height)
        return GuideLayer.Opening(favourites: favourites.numbers(in: shown), lineup: shown.map(\.number),
                                  playing: tuner.view.tuned ?? tuner.view.target, visibleRows: layout.guideRows, span: guide?.timeSpan)
    }

    private func programmes(channel number: Int, from: Date, to: Date) -> [Programme] {
        guide?.programmes(for: channels[number], from: from, to: to) ?? []
    }
}
