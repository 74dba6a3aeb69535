import ZapperCore

/// What each action does while the video is up.
extension Player {
    /// `arrived`: when the key reached the player (zap times count from there).
    /// `released`: the short meaning of a key watched for a long press, now that it is up.
    func perform(_ routed: KeyRouter.Routed, now: Int, arrived: Int? = nil, released: Bool = false) {
        switch routed {
        case .pressed(let action):
            // Standby ends at a key; a locked channel's PIN takes digits first, then the guide and the panel their keys.
            if standbyTakes(now: now) || parentalTakes(action, now: now) { return }
            if !released, waitsForHold(action) {
                longPress.press(key: action.name, action: action, now: now)
                return
            }
            if guideTakes(action, now: now) || panelTakes(action, now: now) || reminderTakes(action, now: now) { return }
            press(action, now: now, held: false, arrived: arrived)
        case .repeated(let action):
            if guideGrid != nil, guideTakes(action, now: now) { return }
            if panel.isOpen, panelTakes(action, now: now) { return }
            press(action, now: now, held: true)
        case .released(let action, let afterRepeats):
            if longPress.watches(action.name) {
                if let short = longPress.release(key: action.name) { perform(.pressed(short), now: now, arrived: arrived, released: true) }
                return
            }
            if afterRepeats, flipDelta(action) != nil { apply(tuner.handle(.released, now: now)) }
        }
    }

    /// Info always, and OK on a channel in the list or the guide, mean "favourite" when held.
    private func waitsForHold(_ action: Action) -> Bool {
        switch action {
        case .info: true
        case .ok: guideGrid != nil || (panel.isOpen && panel.row == .channels && panel.focusedItem != nil)
        default: false
        }
    }

    /// A key held long enough: the favourite of the guide's focused row, the list's focused
    /// channel or the channel on screen.
    func longPressTick(now: Int) {
        guard longPress.due(now: now) != nil else { return }
        if let grid = guideGrid, let number = guideRows[safe: grid.row] {
            toggleFavourite(number)
        } else {
            toggleFavourite()
        }
    }

    private func flipDelta(_ action: Action) -> Int? {
        switch action {
        case .right, .channelUp: 1
        case .left, .channelDown: -1
        default: nil
        }
    }

    private func press(_ action: Action, now: Int, held: Bool, arrived: Int? = nil) {
        if let delta = flipDelta(action) {
            tuner.flipRing = options.config.flipWithin.ring(from: tuner.view.target, lineup: lineup, favourites: favourites)
            apply(tuner.handle(.flip(delta: delta, held: held), now: now, pressedAt: arrived))
            return
        }
        switch action {
        case .digit(let digit): apply(tuner.handle(.digit(digit), now: now, pressedAt: arrived))
        case .ok: apply(tuner.handle(.ok, now: now, pressedAt: arrived))
        case .lastChannel, .back: apply(tuner.handle(.lastChannel, now: now, pressedAt: arrived))
        case .info: apply(tuner.handle(.info, now: now))
        case .volumeUp, .volumeDown:
            let level = audio.level
            announce(audio.setLevel(volume: level.volume + (action == .volumeUp ? 5 : -5), muted: false))
        case .mute:
            announce(audio.setLevel(muted: !audio.level.muted))
        case .favourite:
            toggleFavourite()
        default:
            break
        }
    }

    func announce(_ level: (volume: Int, muted: Bool)) {
        keeper.change {
            $0.volume = level.volume
            $0.muted = level.muted
        }
        log.emit(.volume(level: level.volume, muted: level.muted))
        notices.volumeChanged(now: log.now)
    }
}
