/// What a fleet's tools ask of a running box (MQTT, the local HTTP API). The frame loop
/// carries each out at its next tick, as it would a key from the remote.
public enum RemoteCommand: Sendable, Equatable {
    /// Tune this channel number (through the card, as a number typed on the remote).
    case tune(channel: Int)
    case next, previous
    /// A key name as the keymap knows it (`KEY_CHANNELUP`, `KEY_OK`, …), pressed and released.
    case key(String)
    /// The sound level, 0…100 (unmutes, as the volume keys do).
    case volume(Int)
    case mute(Bool)
    /// The screen as it is now, written to this PNG file.
    case screenshot(path: String)
}

/// How the loop answered a command.
public enum RemoteReply: Sendable, Equatable {
    case done
    /// Not carried out, and why (a number not in the lineup, a key the keymap does not know).
    case refused(String)
}

/// What a box is doing, for a fleet to see: published when it changes.
public struct PlayerStatus: Sendable, Equatable {
    public enum Health: Sendable, Equatable {
        case playing
        case loading
        /// The channel failed; the failure's name (`http-404`, `timeout`, …).
        case failed(String)
        /// In standby (the schedule's, or until a key).
        case standby

        public var name: String {
            switch self {
            case .playing: "playing"
            case .loading: "loading"
            case .failed: "failed"
            case .standby: "standby"
            }
        }
    }

    /// The channel on screen (or being tuned), and its name.
    public var channel: Int
    public var channelName: String
    /// The programme on now, when the guide knows it.
    public var programme: String?
    public var volume: Int
    public var muted: Bool
    public var health: Health

    public init(channel: Int, channelName: String, programme: String?, volume: Int, muted: Bool, health: Health) {
        self.channel = channel
        self.channelName = channelName
        self.programme = programme
        self.volume = volume
        self.muted = muted
        self.health = health
    }
}
