import ZapperCore

/// What each action does while the video is up.
extension Player {
    /// `arrived`: when the key reached the player (zap times count from there).
    /// `released`: the short meaning of a key watched for a long press, now that it is up.
    func perform(_ routed: KeyRouter.Routed, now: Int, arrived: Int? = nil, released: Bool = false) {
        switch routed {
        case .pressed(let action):
            for layer in KeyPrecedence.pressed(action, in: keyScene, released: released) {
                if offer(action, to: layer, now: now, held: false, arrived: arrived) { return }
            }
        case .repeated(let action):
            for layer in KeyPrecedence.repeated(in: keyScene) {
                if offer(action, to: layer, now: now, held: true) { return }
            }
        case .released(let action, let afterRepeats):
            if longPress.watches(action.name) {
                if let short = longPress.release(key: action.name) { perform(.pressed(short), now: now, arrived: arrived, released: true) }
                return
            }
            if afterRepeats, flipDelta(action) != nil { apply(tuner.handle(.released, now: now)) }
        }
    }

    /// What is up, for the order the layers are offered a key in.
    private var keyScene: KeyScene {
        KeyScene(standby: inStandby, locked: parental.isLocked, guideOpen: guideGrid != nil, panelOpen: panel.isOpen,
                 channelInFocus: panel.channelInFocus)
    }

    /// Offers `action` to `layer`; true when it took it.
    private func offer(_ action: Action, to layer: KeyLayer, now: Int, held: Bool, arrived: Int? = nil) -> Bool {
        switch layer {
        case .standby: return standbyTakes(now: now)
        case .parental: return parentalTakes(action, now: now)
        case .longPress:
            longPress.press(key: action.name, action: action, now: now)
            return true
        case .guide: return guideTakes(action, now: now)
        case .panel: return panelTakes(action, now: now)
        case .reminder: return reminderTakes(action, now: now)
        case .transport: return transportTakes(action, now: now)
        case .tuner:
            press(action, now: now, held: held, arrived: arrived)
            return true
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
            tuner.flipRing = options.config.flipWithin.ring(from: tuner.view.target, lineup: lineup, favourites: favourites,
                                                             radio: options.config.flipRadio)
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
