import ZapperCore

/// What the player is wired to: the executable passes FFmpeg, HLS, Cairo, the
/// display and ALSA in; a behaviour test passes scripted ones and a virtual clock.
public struct PlayerPorts {
    /// The channels' pictures and sound.
    public var channels: any ChannelSource
    /// Where the frame loop draws (on the display it presents on).
    public var screen: any Screen
    /// Channel logos.
    public var logos: any ByteLoader
    /// The programme guide (nil: none).
    public var guide: (any GuideLoader)?
    /// Whether a typed PIN matches the configured hash.
    public var verifyPIN: @Sendable (_ pin: String, _ hash: String) -> Bool
    /// Where the state is saved (nil: not saved).
    public var stateStore: (any StateSaving)?
    public var clock: any PlayerClock
    /// Whether the audio thread runs by itself; false: the test steps it (`Player.tick`).
    public var audioThread: Bool
    /// The TV's power (HDMI-CEC), for the schedule's standby (nil: none).
    public var tvPower: (any TVPower)?
    /// Counts pictures and sound as they play, for metrics (nil: nobody counts).
    public var meter: (any PlaybackMeter)?
    /// The link to the box's remote-control page for a phone, asked when the panel's Phone tab
    /// shows (the box's address can change); nil: no HTTP API, no Phone tab.
    public var phoneInvite: (@Sendable () -> PanelPhoneInvite)?

    public init(channels: any ChannelSource, screen: any Screen, logos: any ByteLoader, guide: (any GuideLoader)? = nil,
                verifyPIN: @escaping @Sendable (String, String) -> Bool, stateStore: (any StateSaving)? = nil,
                clock: any PlayerClock = SystemClock(), audioThread: Bool = true, tvPower: (any TVPower)? = nil,
                meter: (any PlaybackMeter)? = nil, phoneInvite: (@Sendable () -> PanelPhoneInvite)? = nil) {
        self.phoneInvite = phoneInvite
        self.tvPower = tvPower
        self.channels = channels
        self.screen = screen
        self.logos = logos
        self.guide = guide
        self.verifyPIN = verifyPIN
        self.stateStore = stateStore
        self.clock = clock
        self.audioThread = audioThread
        self.meter = meter
    }
}
