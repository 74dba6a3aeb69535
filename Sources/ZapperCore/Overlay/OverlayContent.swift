/// What the on-screen overlay shows, as plain values the core can produce.
/// The UI backend draws them; nothing here knows about pixels or fonts.

/// A channel as the overlay presents it.
public struct ChannelIdentity: Sendable, Equatable {
    public var number: Int
    public var name: String
    /// The logo as PNG bytes, if one was fetched. Missing or broken bytes
    /// are drawn as a round badge with the channel's initials.
    public var logoPNG: [UInt8]?
    /// A radio channel: the channel list and the guide mark it.
    public var isRadio: Bool

    public init(number: Int, name: String, logoPNG: [UInt8]? = nil, isRadio: Bool = false) {
        self.number = number
        self.name = name
        self.logoPNG = logoPNG
        self.isRadio = isRadio
    }

    /// The name as the channel list and the guide write it: a radio channel's after a note (♪).
    public var listedName: String { isRadio ? "\u{266A} \(name)" : name }
}

/// One programme of the guide, with times already formatted by the caller
/// (the core knows the time zone and the 12/24 hour preference, the UI does not).
public struct ProgrammeLine: Sendable, Equatable {
    public var title: String
    public var start: String
    public var end: String

    public init(title: String, start: String, end: String) {
        self.title = title
        self.start = start
        self.end = end
    }

    /// "20:00 – 21:30"
    public var timeRange: String { "\(start) – \(end)" }
}

/// The card shown while a flip loads, and what it turns into on failure.
public struct InterstitialCard: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Loading; `spinnerPhase` is one turn of the spinner per 1.0 (any value; only the fraction counts).
        case loading(spinnerPhase: Double)
        /// The tune failed: a reason a person can read and, when a retry is scheduled, the seconds until it.
        case failed(reason: String, retryInSeconds: Int?)
    }

    public var channel: ChannelIdentity
    public var now: ProgrammeLine?
    public var next: ProgrammeLine?
    public var status: Status
    /// A warning in place of the "next" row while loading (why this channel and not the last one).
    public var note: String?

    public init(channel: ChannelIdentity, now: ProgrammeLine? = nil, next: ProgrammeLine? = nil,
                status: Status = .loading(spinnerPhase: 0), note: String? = nil) {
        self.channel = channel
        self.now = now
        self.next = next
        self.status = status
        self.note = note
    }

    public var isFailed: Bool {
        if case .failed = status { return true }
        return false
    }

    /// "Retrying in 4 s", "Retrying now" at zero, nil when no retry is scheduled.
    public static func retryLine(seconds: Int?) -> String? {
        guard let seconds else { return nil }
        return seconds <= 0 ? "Retrying now" : "Retrying in \(seconds) s"
    }
}

/// The banner shown after a successful zap.
public struct ChannelBanner: Sendable, Equatable {
    public var channel: ChannelIdentity
    public var now: ProgrammeLine?
    /// How far into `now` we are, 0…1 (clamped when drawn); nil hides the bar.
    public var progress: Double?
    public var next: ProgrammeLine?

    public init(channel: ChannelIdentity, now: ProgrammeLine? = nil, progress: Double? = nil,
                next: ProgrammeLine? = nil) {
        self.channel = channel
        self.now = now
        self.progress = progress
        self.next = next
    }
}

/// Digits typed so far for number entry.
public struct DigitEntry: Sendable, Equatable {
    public var digits: [Int]
    /// How many digits a channel number can have (the slots shown).
    public var slots: Int

    public init(digits: [Int], slots: Int = 3) {
        self.digits = digits
        self.slots = max(slots, digits.count, 1)
    }

    /// One cell per slot: the typed digit's text, or nil for a slot still empty ("4 2 _").
    public var cells: [String?] {
        (0..<slots).map { $0 < digits.count ? String(digits[$0] % 10) : nil }
    }
}

/// The sound level shown after a volume or mute key.
public struct VolumeLevel: Sendable, Equatable {
    /// 0…100 (clamped).
    public var level: Int
    public var muted: Bool

    public init(level: Int, muted: Bool = false) {
        self.level = min(max(level, 0), 100)
        self.muted = muted
    }

    /// "45", or "Muted".
    public var words: String { muted ? "Muted" : String(level) }
}

/// One thing drawn on the overlay this frame, bottom to top in a list.
/// `appearance` 0…1 slides and fades the element in (0 = gone, 1 = fully shown).
public enum OverlayLayer: Sendable, Equatable {
    case interstitial(InterstitialCard, appearance: Double)
    case banner(ChannelBanner, appearance: Double)
    /// The channel logo, small, in a top corner of the safe area (persistent).
    case logoBug(ChannelIdentity, appearance: Double)
    case digits(DigitEntry, appearance: Double)
    /// The swipe-up panel, rising from the bottom edge of the screen as it appears.
    case panel(PanelContent, appearance: Double)
    /// The "swipe up for more" hint, small, at the bottom centre of the safe area.
    case hint(String, appearance: Double)
    /// The locked card over an opaque dark screen. The dark screen hides the
    /// picture whatever `appearance` is (even 0): only the card itself animates.
    case locked(LockedCard, appearance: Double)
    /// Subtitle cue lines, centred at the bottom of the safe area, white on dark
    /// boxes; long lines wrap. They only fade.
    case subtitles([String], appearance: Double)
    /// The sound level, a small pill at the top centre of the safe area, for a few
    /// seconds after a volume or mute key; it only fades.
    case volume(VolumeLevel, appearance: Double)
    /// The full-screen guide over the dimmed picture.
    case guide(GuideGridContent, appearance: Double)
    /// A small "Offline" pill in the top right corner of the safe area while copies kept from
    /// earlier fetches stand in for the lineup, the guide or logos.
    case offline(appearance: Double)
    /// A radio channel's screen (`RadioScreen`): its card, drifting, over the black screen.
    case radio(RadioScreen, appearance: Double)
    /// A bitmap subtitle (DVB), its canvas stretched over the screen; it only fades.
    case bitmapSubtitles(SubtitleBitmap, appearance: Double)
    /// Standby: the whole screen black.
    case blank

    /// How far the layer has appeared, as given (not clamped).
    public var appearance: Double {
        switch self {
        case .interstitial(_, let a), .banner(_, let a), .logoBug(_, let a), .digits(_, let a),
             .panel(_, let a), .hint(_, let a), .locked(_, let a), .subtitles(_, let a), .volume(_, let a), .guide(_, let a),
             .offline(let a), .radio(_, let a), .bitmapSubtitles(_, let a):
            a
        case .blank: 1
        }
    }
}

/// The initials badge drawn when a channel has no usable logo.
public enum ChannelMonogram {
    /// "BBC One" → "BO", "Demo 1" → "D1", "ZDF" → "ZDF", "Euronews" → "E".
    public static func initials(for name: String) -> String {
        let words = name.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard let first = words.first else { return "#" }
        if words.count >= 2 {
            return String(first.prefix(1) + words[1].prefix(1)).uppercased()
        }
        if first.count <= 3 { return first.uppercased() }
        return first.prefix(1).uppercased()
    }

    /// A colour (r, g, b in 0…1) derived from the name, the same in every run
    /// (FNV-1a, not Swift's seeded hash): saturated enough to tell channels
    /// apart, dark enough for white initials.
    public static func colour(for name: String) -> (red: Double, green: Double, blue: Double) {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let hue = Double(hash % 360) / 360
        return hslToRGB(hue: hue, saturation: 0.55, lightness: 0.42)
    }

    static func hslToRGB(hue: Double, saturation: Double, lightness: Double) -> (red: Double, green: Double, blue: Double) {
        let q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation
        let p = 2 * lightness - q
        func channel(_ t: Double) -> Double {
            var t = t
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 1.0 / 2 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        return (channel(hue + 1.0 / 3), channel(hue), channel(hue - 1.0 / 3))
    }
}
