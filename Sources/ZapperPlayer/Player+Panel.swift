import Foundation
import ZapperCore

/// The swipe-up panel: a `PanelLayer` (its rules are there) whose effects are carried out
/// here. The video keeps playing under it; what it shows is built in Player+PanelContent.
extension Player {
    /// Gives an action to the panel; true when the panel took it (opening it counts).
    func panelTakes(_ action: Action, now: Int) -> Bool {
        guard let effects = panel.take(action, now: now, in: panelContext) else { return false }
        carry(effects, now: now)
        return true
    }

    /// Closes the panel after its inactivity time.
    func panelTick(now: Int) {
        carry(panel.tick(now: now, in: panelContext), now: now)
    }

    private var panelContext: PanelLayer.Context {
        PanelLayer.Context(mayOpen: panelAllowed && tuner.view.digits == nil, channels: panelNumbers)
    }

    func carry(_ effects: [PanelLayer.Effect], now: Int) {
        for effect in effects {
            switch effect {
            case .opened(let row):
                refreshPanelChoices()
                notices.panelOpened()
                log.emit(.panelOpened(row: row.rawValue))
            case .closed(let reason): log.emit(.panelClosed(reason: reason))
            case .tune(let channel): apply(tuner.handle(.select(channel), now: now))
            case .audio(let index): chooseAudio(index)
            case .subtitles(let index): chooseSubtitles(index)
            case .picture(let item): setPicture(item)
            case .openGuide: openGuide(now: now)
            case .recount: refreshPanelChoices()
            }
        }
    }

    /// Each row's items and current choice, as the navigator counts them.
    func refreshPanelChoices() {
        let playing = tuner.view.tuned ?? tuner.view.target
        // The playing channel's place in its own group (the last of its entries), not under Favourites or Recent.
        panel.update(itemCount: panelOrder.count, selected: panelOrder.lastIndex { $0.number == playing }, for: .channels)
        let audio = audioChoices()
        panel.update(itemCount: audio.count, selected: audio.firstIndex(where: \.isCurrent), for: .audio)
        let subtitles = subtitleChoices()
        panel.update(itemCount: subtitles.count, selected: subtitles.firstIndex(where: \.isCurrent), for: .subtitles)
        panel.update(itemCount: PictureTabItem.all.count, selected: PictureTabItem.all.firstIndex(of: .mode(screen.pictureMode)),
                     for: .picture)
        panel.update(itemCount: 1, selected: 0, for: .guide)
    }

    private func setPicture(_ item: PictureTabItem) {
        switch item {
        case .mode(let mode):
            screen.pictureMode = mode
            keeper.change { $0.picture = mode }
            log.emit(.picture(mode: mode.rawValue))
        case .deinterlace(let mode):
            ports.channels.setDeinterlace(mode)
            keeper.change { $0.deinterlace = mode }
            log.emit(.deinterlace(mode: mode.rawValue))
        case .lipSyncEarlier, .lipSyncLater:
            let moved = lipSync.stepped(by: item == .lipSyncEarlier ? 1 : -1)
            keeper.change { $0.lipSyncMilliseconds = moved.milliseconds }
            log.emit(.lipSync(milliseconds: moved.milliseconds))
        }
    }

    /// The Picture tab's lip sync, else the configuration's.
    var lipSync: LipSync { keeper.state.lipSyncMilliseconds.map { LipSync(milliseconds: $0) } ?? options.config.lipSync }
}
