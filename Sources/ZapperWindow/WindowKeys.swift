import CSDL2
import ZapperCore

/// The window's key presses and releases, named as the kernel names the same
/// keys (`KEY_PAGEUP`, `KEY_1`, `KEY_ENTER`), so the keymap is the one evdev
/// keyboards use. Keys are matched by SDL scancode (the key's place on the
/// keyboard, as evdev codes are), not by the layout's symbol. SDL's key
/// repeats are dropped, as evdev's are: the core times repeats. Each press is
/// matched by exactly one release; `releaseAll` lets go of what is held when
/// the window loses the keyboard.
public struct WindowKeys: Sendable {
    /// The device name the window's key events carry.
    public static let device = "window"
    private var held: [UInt32] = []

    public init() {}

    /// A key by SDL scancode; nil for a key with no kernel name, a repeat, or a
    /// release whose press was not seen.
    public mutating func key(scancode: UInt32, down: Bool, isRepeat: Bool) -> KeyEvent? {
        guard !isRepeat, let name = Self.name(scancode: scancode) else { return nil }
        if down {
            guard !held.contains(scancode) else { return nil }
            held.append(scancode)
            return KeyEvent(name: name, kind: .press, device: Self.device)
        }
        guard let index = held.firstIndex(of: scancode) else { return nil }
        held.remove(at: index)
        return KeyEvent(name: name, kind: .release, device: Self.device)
    }

    /// Releases for every key still held, oldest first.
    public mutating func releaseAll() -> [KeyEvent] {
        defer { held.removeAll() }
        return held.compactMap { Self.name(scancode: $0).map { KeyEvent(name: $0, kind: .release, device: Self.device) } }
    }

    /// The kernel's name of the key at an SDL scancode, if it has one.
    public static func name(scancode: UInt32) -> String? { names[scancode] }

    /// Every SDL scancode with a kernel name.
    public static var scancodes: [UInt32] { names.keys.sorted() }

    private static let names: [UInt32: String] = {
        var names: [UInt32: String] = [:]
        func run(from first: SDL_Scancode, _ keys: [String]) {
            for (offset, key) in keys.enumerated() { names[first.rawValue + UInt32(offset)] = "KEY_" + key }
        }
        run(from: SDL_SCANCODE_A, (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) })
        run(from: SDL_SCANCODE_1, (1...9).map(String.init) + ["0"])
        run(from: SDL_SCANCODE_F1, (1...12).map { "F\($0)" })
        run(from: SDL_SCANCODE_F13, (13...24).map { "F\($0)" })
        run(from: SDL_SCANCODE_KP_1, (1...9).map { "KP\($0)" } + ["KP0", "KPDOT"])
        let single: [(SDL_Scancode, String)] = [
            (SDL_SCANCODE_RETURN, "ENTER"), (SDL_SCANCODE_ESCAPE, "ESC"), (SDL_SCANCODE_BACKSPACE, "BACKSPACE"),
            (SDL_SCANCODE_TAB, "TAB"), (SDL_SCANCODE_SPACE, "SPACE"), (SDL_SCANCODE_MINUS, "MINUS"),
            (SDL_SCANCODE_EQUALS, "EQUAL"), (SDL_SCANCODE_LEFTBRACKET, "LEFTBRACE"), (SDL_SCANCODE_RIGHTBRACKET, "RIGHTBRACE"),
            (SDL_SCANCODE_BACKSLASH, "BACKSLASH"), (SDL_SCANCODE_SEMICOLON, "SEMICOLON"), (SDL_SCANCODE_APOSTROPHE, "APOSTROPHE"),
            (SDL_SCANCODE_GRAVE, "GRAVE"), (SDL_SCANCODE_COMMA, "COMMA"), (SDL_SCANCODE_PERIOD, "DOT"), (SDL_SCANCODE_SLASH, "SLASH"),
            (SDL_SCANCODE_CAPSLOCK, "CAPSLOCK"), (SDL_SCANCODE_PRINTSCREEN, "SYSRQ"), (SDL_SCANCODE_SCROLLLOCK, "SCROLLLOCK"),
            (SDL_SCANCODE_PAUSE, "PAUSE"), (SDL_SCANCODE_INSERT, "INSERT"), (SDL_SCANCODE_HOME, "HOME"),
            (SDL_SCANCODE_PAGEUP, "PAGEUP"), (SDL_SCANCODE_DELETE, "DELETE"), (SDL_SCANCODE_END, "END"),
            (SDL_SCANCODE_PAGEDOWN, "PAGEDOWN"), (SDL_SCANCODE_RIGHT, "RIGHT"), (SDL_SCANCODE_LEFT, "LEFT"),
            (SDL_SCANCODE_DOWN, "DOWN"), (SDL_SCANCODE_UP, "UP"), (SDL_SCANCODE_NUMLOCKCLEAR, "NUMLOCK"),
            (SDL_SCANCODE_KP_DIVIDE, "KPSLASH"), (SDL_SCANCODE_KP_MULTIPLY, "KPASTERISK"), (SDL_SCANCODE_KP_MINUS, "KPMINUS"),
            (SDL_SCANCODE_KP_PLUS, "KPPLUS"), (SDL_SCANCODE_KP_ENTER, "KPENTER"), (SDL_SCANCODE_KP_EQUALS, "KPEQUAL"),
            (SDL_SCANCODE_NONUSBACKSLASH, "102ND"), (SDL_SCANCODE_APPLICATION, "COMPOSE"), (SDL_SCANCODE_POWER, "POWER"),
            (SDL_SCANCODE_HELP, "HELP"), (SDL_SCANCODE_MENU, "MENU"), (SDL_SCANCODE_SELECT, "SELECT"),
            (SDL_SCANCODE_STOP, "STOP"), (SDL_SCANCODE_AGAIN, "AGAIN"), (SDL_SCANCODE_UNDO, "UNDO"),
            (SDL_SCANCODE_CUT, "CUT"), (SDL_SCANCODE_COPY, "COPY"), (SDL_SCANCODE_PASTE, "PASTE"), (SDL_SCANCODE_FIND, "FIND"),
            (SDL_SCANCODE_MUTE, "MUTE"), (SDL_SCANCODE_VOLUMEUP, "VOLUMEUP"), (SDL_SCANCODE_VOLUMEDOWN, "VOLUMEDOWN"),
            (SDL_SCANCODE_LCTRL, "LEFTCTRL"), (SDL_SCANCODE_LSHIFT, "LEFTSHIFT"), (SDL_SCANCODE_LALT, "LEFTALT"),
            (SDL_SCANCODE_LGUI, "LEFTMETA"), (SDL_SCANCODE_RCTRL, "RIGHTCTRL"), (SDL_SCANCODE_RSHIFT, "RIGHTSHIFT"),
            (SDL_SCANCODE_RALT, "RIGHTALT"), (SDL_SCANCODE_RGUI, "RIGHTMETA"),
            (SDL_SCANCODE_AUDIONEXT, "NEXTSONG"), (SDL_SCANCODE_AUDIOPREV, "PREVIOUSSONG"), (SDL_SCANCODE_AUDIOSTOP, "STOPCD"),
            (SDL_SCANCODE_AUDIOPLAY, "PLAYPAUSE"), (SDL_SCANCODE_AUDIOMUTE, "MUTE"), (SDL_SCANCODE_MEDIASELECT, "MEDIA"),
            (SDL_SCANCODE_WWW, "WWW"), (SDL_SCANCODE_MAIL, "MAIL"), (SDL_SCANCODE_CALCULATOR, "CALC"),
            (SDL_SCANCODE_COMPUTER, "COMPUTER"), (SDL_SCANCODE_AC_SEARCH, "SEARCH"), (SDL_SCANCODE_AC_HOME, "HOMEPAGE"),
            (SDL_SCANCODE_AC_BACK, "BACK"), (SDL_SCANCODE_AC_FORWARD, "FORWARD"), (SDL_SCANCODE_AC_STOP, "STOP"),
            (SDL_SCANCODE_AC_REFRESH, "REFRESH"), (SDL_SCANCODE_AC_BOOKMARKS, "BOOKMARKS"),
            (SDL_SCANCODE_BRIGHTNESSDOWN, "BRIGHTNESSDOWN"), (SDL_SCANCODE_BRIGHTNESSUP, "BRIGHTNESSUP"),
            (SDL_SCANCODE_EJECT, "EJECTCD"), (SDL_SCANCODE_SLEEP, "SLEEP"),
            (SDL_SCANCODE_AUDIOREWIND, "REWIND"), (SDL_SCANCODE_AUDIOFASTFORWARD, "FASTFORWARD"),
        ]
        for (scancode, key) in single { names[scancode.rawValue] = "KEY_" + key }
        return names
    }()
}
