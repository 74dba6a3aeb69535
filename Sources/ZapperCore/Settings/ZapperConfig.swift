/// The configuration's values: what is not a command-line flag. ZapperSettings'
/// `ConfigFile` reads them from TOML (its doc comment lists the keys); a flag
/// given on the command line wins over the file.
public struct ZapperConfig: Sendable, Equatable {
    /// The lineup: a file path or an http(s) URL.
    public var lineup: String?
    /// The XMLTV guide: a file path or an http(s) URL; else the lineup's `url-tvg`.
    public var guide: String?
    /// Hours added to every guide time (`GuideShift.range`) for channels without a `tvg-shift`.
    public var guideShift: Double?
    /// A keymap file laid over the default bindings.
    public var keymap: String?
    /// The channel to tune when no last channel is remembered.
    public var defaultChannel: Int?
    /// Lineup entries that are one channel (`DuplicateMerge`) become one channel with
    /// backup sources; false: every entry is a channel of its own.
    public var mergeDuplicates = true
    /// The panel's channel list leaves out the channels the last `zapper check` found dead.
    public var hideDeadChannels = false
    /// Which channels CH± steps through.
    public var flipWithin = FlipWithin.all
    /// CH± steps onto radio channels too (`flip-radio`); false skips them.
    public var flipRadio = true
    public var parental: Parental
    public var signage: Signage
    public var network = Network()
    /// Day-parting (`[[schedule]]`), in the configuration's order.
    public var schedule: [ScheduleEntry] = []
    /// Even loudness (`[sound]`).
    public var loudness = Leveller.Settings()
    /// The HTTP API's bearer token (`[api] token`, served on the metrics' listener); nil: no API.
    public var apiToken: String?
    /// What reading the file said that does not stop the box ("…; the rest are left out"), each
    /// with the file and line, said at start.
    public var notes: [String] = []
    /// The names besides IP literals and `localhost` a request's `Host` may give (`[api] hostnames`, `HostRule`).
    public var apiHostnames: [String] = []
    /// The Prometheus metrics' listener (`[metrics] listen`); nil: no metrics are served.
    public var metricsListen: ListenAddress?
    /// `[mqtt]`: the broker a fleet (Home Assistant) reaches the box through; nil: none.
    public var mqtt: MQTTSettings?
    /// Closed captions show while the sound is muted (`[sound] captions-when-muted`).
    public var captionsWhenMuted = false
    /// The sound played where nobody chose a track (`[sound] languages`, `audio-description`).
    public var audio = AudioPreferences()
    /// The display's refresh follows the content's picture rate on KMS (`[display] match-frame-rate`).
    public var matchFrameRate = false
    /// Lip sync (`[sound] delay-ms`): pictures that much earlier against the sound; the state's wins.
    public var lipSync = LipSync()
    /// Pause and play behind live (`[timeshift]`; `[signage] timeshift-disabled` switches it off).
    public var timeshift = TimeshiftSettings()
    /// Subtitles shown where nobody chose any (`[subtitles] languages`); empty: none.
    public var subtitleLanguages: [String] = []

    /// Where fetches may go.
    public struct Network: Sendable, Equatable {
        /// Refuse every fetch after the lineup's (streams, guide, logos, their redirects) that
        /// would reach a loopback, link-local or private address (`FetchPolicy.isLocal`).
        public var blockPrivateAddresses = false
        /// The User-Agent of requests whose channel names none; nil: `Zapper/<version>`.
        public var userAgent: String?
        /// A PEM file of certificate authorities trusted for https besides the system's
        /// (a provider's or a hotel network's private CA).
        public var caFile: String?
        /// The most connections kept open to one host at once (the playing channel and warm
        /// neighbours), for providers that allow one or two per account; nil: no limit.
        public var connectionsPerHost: Int?
        public static let connectionsPerHostRange = 1...64
        public init(blockPrivateAddresses: Bool = false, userAgent: String? = nil, caFile: String? = nil) {
            self.blockPrivateAddresses = blockPrivateAddresses
            self.userAgent = userAgent
            self.caFile = caFile
        }
    }

    public struct Parental: Sendable, Equatable {
        /// The highest age a programme or channel may be rated for without a
        /// PIN; `nil` turns parental control off.
        public var maxAge: Int?
        /// Lock channels and programmes whose rating is unknown or missing.
        public var lockUnknown: Bool
        /// The PIN as `PINHash` writes it (`sha256:<iterations>:<salt>:<hash>`).
        public var pinHash: String?
        /// Digits in the PIN.
        public var pinLength: Int
        /// How long an unlock lasts on the same channel, in seconds.
        public var unlockTimeout: Int

        public init(maxAge: Int? = nil, lockUnknown: Bool = false, pinHash: String? = nil,
                    pinLength: Int = 4, unlockTimeout: Int = 4 * 3600) {
            self.maxAge = maxAge
            self.lockUnknown = lockUnknown
            self.pinHash = pinHash
            self.pinLength = pinLength
            self.unlockTimeout = unlockTimeout
        }
    }

    /// For a lobby or waiting-room screen nobody operates.
    public struct Signage: Sendable, Equatable {
        /// Start with the sound muted, whatever the saved state says.
        public var startMuted: Bool
        /// Never show the "swipe up for more" hint.
        public var noHint: Bool
        /// The panel never opens.
        public var panelDisabled: Bool
        /// A reminder's channel is tuned by itself when its programme starts.
        public var switchAtReminders = false
        /// The picture watch: a channel whose pictures keep coming but show the same thing, or
        /// only black, for this many seconds is tuned again (0: that check is off).
        public var pictureFrozenSeconds = 10
        public var pictureBlackSeconds = 10
        /// The most either may be (a day).
        public static let pictureWatchLimit = 86_400

        /// The picture watch's settings; nil when both checks are off.
        public var pictureWatch: PictureWatch.Settings? {
            guard pictureFrozenSeconds > 0 || pictureBlackSeconds > 0 else { return nil }
            return PictureWatch.Settings(frozenAfter: pictureFrozenSeconds * 1000, blackAfter: pictureBlackSeconds * 1000)
        }

        public init(startMuted: Bool = false, noHint: Bool = false, panelDisabled: Bool = false) {
            self.startMuted = startMuted
            self.noHint = noHint
            self.panelDisabled = panelDisabled
        }
    }

    public init(lineup: String? = nil, guide: String? = nil, keymap: String? = nil, defaultChannel: Int? = nil,
                parental: Parental = Parental(), signage: Signage = Signage()) {
        self.lineup = lineup
        self.guide = guide
        self.keymap = keymap
        self.defaultChannel = defaultChannel
        self.parental = parental
        self.signage = signage
    }
}
