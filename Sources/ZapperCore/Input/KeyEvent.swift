/// One key going down or up on an input device, named as the kernel names it
/// (`KEY_CHANNELUP`, `BTN_SOUTH`) or by a pseudo key for a gesture
/// (`SWIPE_UP`, `SWIPE_DOWN`). There are no repeats: the core times those
/// itself from press and release.
public struct KeyEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case press, release
    }

    public let name: String
    public let kind: Kind
    /// The device it came from, for the log ("AT Translated Set 2 keyboard").
    public let device: String

    public init(name: String, kind: Kind, device: String) {
        self.name = name
        self.kind = kind
        self.device = device
    }

    public static let swipeUp = "SWIPE_UP"
    public static let swipeDown = "SWIPE_DOWN"

    public var description: String { "\(name) \(kind.rawValue) (\(device))" }
}
