import ZapperCore

/// What each action does while the video is up.
extension Player {
    /// `arrived`: when the key reached the player (zap times count from there).
    func perform(_ routed: KeyRouter.Routed, now: Int, arrived: Int? = nil) {
        switch routed {
        case .pressed(let action):
            // A locked channel's PIN takes digits first, then the panel its keys.
            if parentalTakes(action, now: now) || guideTakes(action, now: now) || panelTakes(action, now: now)
                || reminderTakes(action, now: now) { return }
            press(action, now: now, held: false, arrived: arrived)
        case .repeated(let action):
            if guideGrid != nil, guideTakes(action, now: now) { return }
            if panel.isOpen, panelTakes(action, now: now) { return }
            press(action, now: now, held: true)
        case .released(let action, let afterRepeats):
            if afterRepeats, flipDelta(action) != nil { apply(tuner.handle(.released, now: now)) }
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
