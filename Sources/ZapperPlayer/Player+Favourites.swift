import ZapperCore

/// Favourites: the favourite key adds the channel (the one focused in the panel's
/// list, else the one on screen) or takes it away; the list shows them first.
extension Player {
    func toggleFavourite(_ chosen: Int? = nil) {
        var number = chosen ?? tuner.view.tuned ?? tuner.view.target
        if chosen == nil, panel.isOpen, panel.row == .channels, let focused = panel.focusedItem, panelOrder.indices.contains(focused) {
            number = panelOrder[focused].number
        }
        guard let channel = channels[number] else { return }
        let on = favourites.toggle(channel)
        keeper.change { $0.favourites = favourites.keys }
        log.emit(.favourite(channel: number, on: on))
        rebuildPanelOrder()
    }

    /// A channel's picture came: it heads the recent channels.
    func watched(_ number: Int) {
        guard let channel = channels[number] else { return }
        recents.watched(channel)
        keeper.change { $0.recents = recents.keys }
        // Built again when the panel next wants it; at once only while it is open (its focus moves).
        if panel.isOpen { rebuildPanelOrder() } else { panelOrderCache = nil }
    }

    /// The channel list anew (favourites or recents changed); the focus stays on the channel
    /// it was on, wherever the list moved it.
    private func rebuildPanelOrder() {
        let focusedNumber = panel.focusedItem.flatMap { panelOrder.indices.contains($0) ? panelOrder[$0].number : nil }
        panelOrderCache = nil
        channelRowsCache = nil
        refreshPanelChoices()
        if let focusedNumber, let index = panelNumbers.lastIndex(of: focusedNumber) { panel.focus(item: index) }
    }
}
