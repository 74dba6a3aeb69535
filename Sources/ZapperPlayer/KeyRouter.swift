import ZapperCore

/// Keys to actions through the keymap, with the core's key repeat: a held
/// flip or volume key repeats, faster the longer it is held; the release is
/// reported so a held flip tunes when let go. Every press is a `key` event.
struct KeyRouter {
    enum Routed: Equatable {
        case pressed(Action)
        case repeated(Action)
        case released(Action, afterRepeats: Bool)
    }

    let keymap: Keymap
    private var keyRepeat = KeyRepeat()

    init(keymap: Keymap) {
        self.keymap = keymap
    }

    /// `arrived`: when the key reached the player; `waited_ms` in its `key` event says how
    /// long it waited for the frame loop's turn.
    mutating func handle(_ event: KeyEvent, now: Int, arrived: Int, log: EventLog) -> [Routed] {
        let action = keymap[event.name]
        switch event.kind {
        case .press:
            log.emit(.key(name: event.name, action: action?.name ?? "none", waitedMilliseconds: max(0, now - arrived)))
            guard let action else { return [] }
            keyRepeat.press(key: event.name, action: action, now: now)
            return [.pressed(action)]
        case .release:
            guard let action else { return [] }
            let repeated = keyRepeat.release(key: event.name, now: now)
            return [.released(action, afterRepeats: repeated)]
        }
    }

    /// The repeat that fell due, if any.
    mutating func due(now: Int) -> [Routed] {
        keyRepeat.tick(now: now).map { [.repeated($0)] } ?? []
    }
}
