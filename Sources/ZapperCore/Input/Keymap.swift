/// What a key means to Zapper, whatever device it came from.
public enum Action: Sendable, Hashable, CustomStringConvertible {
    case left, right, up, down, ok, back
    case channelUp, channelDown
    /// 0…9.
    case digit(Int)
    case lastChannel, info, menu, guide, panel
    case volumeUp, volumeDown, mute
    /// Adds the channel to the favourites, or takes it away.
    case favourite
    /// Time-shift: pause or play (`play-pause`), only pause, only play, and back to the live edge.
    case playPause, pause, play, live

    /// Every action, in the order the keymap file's documentation lists them.
    public static let all: [Action] = [.left, .right, .up, .down, .ok, .back, .channelUp, .channelDown]
        + (0...9).map(Action.digit) + [.lastChannel, .info, .menu, .guide, .panel, .volumeUp, .volumeDown, .mute, .favourite,
           .playPause, .pause, .play, .live]

    /// The name in a keymap file and in `key` events: `channel-up`, `digit-5`, `last-channel`.
    public var name: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .up: "up"
        case .down: "down"
        case .ok: "ok"
        case .back: "back"
        case .channelUp: "channel-up"
        case .channelDown: "channel-down"
        case .digit(let digit): "digit-\(digit)"
        case .lastChannel: "last-channel"
        case .info: "info"
        case .menu: "menu"
        case .guide: "guide"
        case .panel: "panel"
        case .volumeUp: "volume-up"
        case .volumeDown: "volume-down"
        case .mute: "mute"
        case .favourite: "favourite"
        case .playPause: "play-pause"
        case .pause: "pause"
        case .play: "play"
        case .live: "live"
        }
    }

    public var description: String { name }

    /// The action named `name`, if any.
    public init?(name: String) {
        guard let action = Action.all.first(where: { $0.name == name }) else { return nil }
        self = action
    }

    /// Whether holding the key repeats the action: flips and volume do.
    public var repeats: Bool {
        switch self {
        case .left, .right, .channelUp, .channelDown, .volumeUp, .volumeDown: true
        default: false
        }
    }
}

/// Key names (evdev `KEY_*`/`BTN_*` names, plus `SWIPE_UP`/`SWIPE_DOWN` for
/// touch swipes) bound to actions. Files hold `KEY_NAME action` lines; a
/// file's keymap is laid over `Keymap.defaults` key by key with `merging`.
public struct Keymap: Sendable, Equatable {
    /// Key name → action.
    public private(set) var bindings: [String: Action]
    /// Keys a file unbinds with the action `none`.
    public private(set) var unbound: Set<String>

    public init(_ bindings: [String: Action] = [:], unbound: Set<String> = []) {
        self.bindings = bindings
        self.unbound = unbound
    }

    /// The action bound to `key`, if any.
    public subscript(key: String) -> Action? { bindings[key] }

    /// This keymap with `other` laid over it: `other`'s bindings replace or add
    /// to these, and the keys it unbinds are removed.
    public func merging(_ other: Keymap) -> Keymap {
        var merged = bindings.filter { !other.unbound.contains($0.key) }
        merged.merge(other.bindings) { _, new in new }
        return Keymap(merged)
    }

    /// Whether `name` looks like a key the keymap can bind: any `KEY_*` or
    /// `BTN_*` token (the caller checks it against libevdev's names), or a swipe.
    public static func isKeyName(_ name: String) -> Bool {
        if name == "SWIPE_UP" || name == "SWIPE_DOWN" { return true }
        guard name.hasPrefix("KEY_") || name.hasPrefix("BTN_"), name.count > 4 else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The bindings of a keymap file: one `KEY_NAME action` per line, or
    /// `KEY_NAME none` to unbind a default. Blank lines and `#` comments are
    /// skipped; the first bad line is thrown as `FILE:LINE: reason`.
    /// `canonical` gives the name input events carry for a key (the kernel has
    /// several names for some codes: `BTN_A` is `BTN_SOUTH`), nil for a key the
    /// kernel does not have; the player passes libevdev's (`EvdevCodes`).
    public static func parse(_ text: String, source: String,
                             canonical: (String) -> String? = { $0 }) throws(InputProblem) -> Keymap {
        var keymap = Keymap()
        var lineOf: [String: Int] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.isEmpty { continue }
            let line = index + 1
            func fail(_ reason: String) -> InputProblem { InputProblem(source: source, line: line, message: reason) }
            guard words.count == 2 else { throw fail("expected \"KEY_NAME action\", found \(words.count) words") }
            let (written, name) = (words[0], words[1])
            guard isKeyName(written) else {
                throw fail("\"\(written)\" is not a key name (KEY_*, BTN_*, SWIPE_UP or SWIPE_DOWN)")
            }
            let swipe = written.hasPrefix("SWIPE_")
            guard let key = swipe ? written : canonical(written) else {
                throw fail("the kernel has no key named \(written)")
            }
            if let first = lineOf[key] {
                throw fail("\(written)\(key == written ? "" : " (\(key))") is already bound on line \(first)")
            }
            lineOf[key] = line
            if name == "none" {
                keymap.unbound.insert(key)
            } else if let action = Action(name: name) {
                keymap.bindings[key] = action
            } else {
                throw fail("unknown action \"\(name)\" (\(Action.all.map(\.name).joined(separator: ", ")), none)")
            }
        }
        return keymap
    }

    /// The keymap of a file as the player uses it: `defaults` with the file's
    /// bindings laid over them (`Keymap.defaults.merging(parse(text))`).
    public static func load(_ text: String, source: String,
                            canonical: (String) -> String? = { $0 }) throws(InputProblem) -> Keymap {
        defaults.merging(try parse(text, source: source, canonical: canonical))
    }

    /// Bindings for keyboards, IR remotes, HDMI-CEC remotes, gamepads and touch.
    public static let defaults = Keymap(Dictionary(defaultGroups.flatMap(\.bindings), uniquingKeysWith: { first, _ in first }))

    /// `defaults` as a keymap file, with a comment per device family.
    public static let defaultsText: String = defaultGroups.map { group in
        "# \(group.title)\n" + group.bindings.map { "\($0.key) \($0.action.name)\n" }.joined()
    }.joined(separator: "\n")

    private struct Group {
        var title: String
        var bindings: [(key: String, action: Action)]
    }

    private static let digits: [(key: String, action: Action)] =
        (0...9).map { ("KEY_\($0)", .digit($0)) } + (0...9).map { ("KEY_NUMERIC_\($0)", .digit($0)) }

    private static let defaultGroups: [Group] = [
        Group(title: "Keyboards, IR remotes (rc-core) and HDMI-CEC remotes: arrows and OK", bindings: [
            ("KEY_LEFT", .left), ("KEY_RIGHT", .right), ("KEY_UP", .up), ("KEY_DOWN", .down),
            ("KEY_OK", .ok), ("KEY_SELECT", .ok), ("KEY_ENTER", .ok), ("KEY_KPENTER", .ok),
            ("KEY_BACK", .back), ("KEY_ESC", .back), ("KEY_EXIT", .back), ("KEY_BACKSPACE", .back),
        ]),
        Group(title: "Channels: CH+/CH-, Page Up/Down, last channel", bindings: [
            ("KEY_CHANNELUP", .channelUp), ("KEY_CHANNELDOWN", .channelDown),
            ("KEY_PAGEUP", .channelUp), ("KEY_PAGEDOWN", .channelDown),
            ("KEY_PREVIOUS", .lastChannel), ("KEY_LAST", .lastChannel), ("KEY_AGAIN", .lastChannel),
        ]),
        Group(title: "Digits: keyboard and CEC (KEY_0...) and IR remotes (KEY_NUMERIC_0...)", bindings: digits),
        Group(title: "Information, guide and menus (CEC's root menu is KEY_CONTEXT_MENU)", bindings: [
            ("KEY_INFO", .info), ("KEY_I", .info), ("KEY_FAVORITES", .favourite), ("KEY_F", .favourite), ("KEY_EPG", .guide), ("KEY_PROGRAM", .guide), ("KEY_G", .guide),
            ("KEY_MENU", .menu), ("KEY_CONTEXT_MENU", .menu), ("KEY_SETUP", .menu), ("KEY_M", .menu),
        ]),
        Group(title: "Sound", bindings: [
            ("KEY_VOLUMEUP", .volumeUp), ("KEY_VOLUMEDOWN", .volumeDown), ("KEY_MUTE", .mute),
        ]),
        Group(title: "Time-shift: play/pause (Space on a keyboard), pause, play, back to live (Stop)", bindings: [
            ("KEY_PLAYPAUSE", .playPause), ("KEY_SPACE", .playPause), ("KEY_PAUSE", .pause), ("KEY_PLAY", .play),
            ("KEY_STOP", .live),
        ]),
        Group(title: "Gamepads (evdev)", bindings: [
            ("BTN_DPAD_LEFT", .left), ("BTN_DPAD_RIGHT", .right), ("BTN_DPAD_UP", .up), ("BTN_DPAD_DOWN", .down),
            ("BTN_SOUTH", .ok), ("BTN_EAST", .back), ("BTN_WEST", .lastChannel), ("BTN_NORTH", .info),
            ("BTN_TL", .channelDown), ("BTN_TR", .channelUp), ("BTN_START", .menu), ("BTN_SELECT", .guide),
            ("BTN_THUMBL", .playPause),
        ]),
        Group(title: "Touchscreens: vertical swipes", bindings: [
            ("SWIPE_UP", .panel), ("SWIPE_DOWN", .back),
        ]),
    ]
}
