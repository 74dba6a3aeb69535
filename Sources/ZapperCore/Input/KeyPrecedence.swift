/// Who may take a key, in order. Each layer in turn takes the key or passes it
/// on; the tuner (flips, digits, OK, volume) comes last and takes what is left.
public enum KeyLayer: Sendable, Equatable {
    /// Any key wakes the box from standby, and does nothing else.
    case standby
    /// A locked channel's PIN card takes the digits (and Back while digits are typed).
    case parental
    /// A key whose long press means something waits to see whether it is held.
    case longPress
    /// The full-screen guide (or the key that opens it).
    case guide
    /// The swipe-up panel (or a key that opens it).
    case panel
    /// OK while a reminder's notice is up switches to its channel.
    case reminder
    /// Time-shift's keys: pause, play, back to live (`TransportLayer`).
    case transport
    case tuner
}

/// What is on screen when a key comes, as far as who takes it goes.
public struct KeyScene: Sendable, Equatable {
    public var standby: Bool
    /// The locked card of a parental lock is up.
    public var locked: Bool
    public var guideOpen: Bool
    public var panelOpen: Bool
    /// The panel's channel list has a channel in focus.
    public var channelInFocus: Bool

    public init(standby: Bool = false, locked: Bool = false, guideOpen: Bool = false, panelOpen: Bool = false,
                channelInFocus: Bool = false) {
        self.standby = standby
        self.locked = locked
        self.guideOpen = guideOpen
        self.panelOpen = panelOpen
        self.channelInFocus = channelInFocus
    }
}

/// The order in which the layers on screen are offered a key.
public enum KeyPrecedence {
    /// For a press of `action` (`released`: the short meaning of a key watched for a long
    /// press, now that it came up without being held, goes straight on).
    public static func pressed(_ action: Action, in scene: KeyScene, released: Bool = false) -> [KeyLayer] {
        if scene.standby { return [.standby] }
        var layers: [KeyLayer] = scene.locked ? [.parental] : []
        if !released, waitsForHold(action, in: scene) { return layers + [.longPress] }
        layers += [.guide, .panel, .reminder, .transport, .tuner]
        return layers
    }

    /// For a held key's repeat: the guide or the panel when up (they move their focus), else the tuner.
    public static func repeated(in scene: KeyScene) -> [KeyLayer] {
        if scene.standby { return [] }
        return (scene.guideOpen ? [.guide] : []) + (scene.panelOpen ? [.panel] : []) + [.tuner]
    }

    /// Whether `action` waits to see if it is held: Info always, and OK on a channel in the
    /// guide or the list (held, they add or remove a favourite).
    public static func waitsForHold(_ action: Action, in scene: KeyScene) -> Bool {
        switch action {
        case .info: true
        case .ok: scene.guideOpen || (scene.panelOpen && scene.channelInFocus)
        default: false
        }
    }
}
