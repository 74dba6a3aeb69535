import CInput

/// Linux input event codes by name, from libevdev's tables: the keymap file
/// names keys as the kernel does (`KEY_CHANNELUP`, `BTN_SOUTH`).
public enum EvdevCodes {
    /// The code of a key or button name, or nil if the kernel has no such key.
    public static func keyCode(named name: String) -> UInt32? {
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
        return code < 0 ? nil : UInt32(code)
    }

    /// The kernel's name of a key code, e.g. 0x192 -> "KEY_CHANNELUP".
    public static func keyName(_ code: UInt32) -> String? {
        guard let name = libevdev_event_code_get_name(UInt32(EV_KEY), code) else { return nil }
        return String(cString: name)
    }

    /// The name input events will carry for a key named in a keymap: the
    /// kernel gives some codes several names (`BTN_A` = `BTN_SOUTH`,
    /// `KEY_HANGUEL` = `KEY_HANGEUL`) and events use one of them. Nil if the
    /// kernel has no such key.
    public static func canonicalKeyName(_ name: String) -> String? {
        keyCode(named: name).flatMap(keyName)
    }
}
