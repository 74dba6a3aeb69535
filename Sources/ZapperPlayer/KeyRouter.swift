import ZapperCore

/// Keys to actions through the keymap, with key repeat: a held flip or volume
/// key repeats, faster the longer it is held; the release is reported so a
/// held flip tunes when let go. Every press is logged as a `key` event.
struct KeyRouter {
    enum Routed: Equatable {
        case pressed(KeyAction)
        case repeated(KeyAction)
        case released(KeyAction, afterRepeats: Bool)
    }

    let keymap: Keymap
    private var held: (name: String, action: KeyAction, nextAt: Int, interval: Int, repeats: Int)?
    static let firstRepeat = 400
    static let startInterval = 200
    static let fastestInterval = 60

    init(keymap: Keymap) {
        self.keymap = keymap
    }

    mutating func handle(_ event: KeyEvent, now: Int, log: EventLog) -> [Routed] {
        let action = keymap.action(for: event.name)
        switch event.kind {
        case .press:
            log.emit("key", [("name", .string(event.name)), ("action", .string(action?.name ?? "none"))])
            guard let action else { return [] }
            held = action.repeats ? (event.name, action, now + Self.firstRepeat, Self.startInterval, 0) : nil
            return [.pressed(action)]
        case .release:
            guard let current = held, current.name == event.name else { return [] }
            held = nil
            return [.released(current.action, afterRepeats: current.repeats > 0)]
        }
    }

    /// Repeats that fell due; each one comes a little sooner than the last.
    mutating func due(now: Int) -> [Routed] {
        var out: [Routed] = []
        while var current = held, current.nextAt <= now {
            out.append(.repeated(current.action))
            current.repeats += 1
            current.interval = max(Self.fastestInterval, current.interval * 85 / 100)
            current.nextAt += current.interval
            held = current
        }
        return out
    }
}
