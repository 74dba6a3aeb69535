// Temporary: replaced by ZapperCore's Keymap.
public enum KeyAction: Equatable, Sendable {
    case left, right, up, down, ok, back, channelUp, channelDown, digit(Int), lastChannel, info, menu, guide, panel, volumeUp, volumeDown, mute
    var name: String { "\(self)" }
    var repeats: Bool { [.left, .right, .channelUp, .channelDown, .volumeUp, .volumeDown].contains(self) }
}
public struct Keymap: Sendable {
    public static let defaults = Keymap()
    func action(for name: String) -> KeyAction? {
        switch name {
        case "KEY_RIGHT", "KEY_CHANNELUP": .channelUp
        case "KEY_LEFT", "KEY_CHANNELDOWN": .channelDown
        case "KEY_OK", "KEY_ENTER": .ok
        case "KEY_MUTE": .mute
        default: name.hasPrefix("KEY_") && name.count == 5 ? Int(name.suffix(1)).map { .digit($0) } : nil
        }
    }
    public static func parse(_ text: String, source: String) throws -> Keymap { Keymap() }
}
