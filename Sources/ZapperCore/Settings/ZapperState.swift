import Foundation

/// What the box remembers across restarts and power cuts: the last channel,
/// the sound, per-channel audio and subtitle choices, the picture mode, the
/// PIN lockout, and what the crash-loop breaker needs.
/// ZapperSettings' `StateStore` writes it atomically as JSON.
///
/// Reading is forgiving: a key that is missing (an older file) takes its
/// default, and a volume out of range is clamped, so an old or hand-edited
/// file never loses the rest of the state.
///
/// Everything in it is bounded, so that reading and saving it stay quick whatever a file
/// holds: the per-channel maps (`audio`, `subtitles`, `sources`) at `mostChannelChoices`
/// each (`bounded(keeping:)`: channels no longer in the lineup go first), `favourites`,
/// `recents`, `levels`, `reminders` and the unclean exits at their own types' limits (the
/// oldest going first), and the file itself at `StateStore.maxBytes`.
public struct ZapperState: Codable, Equatable, Sendable {
    /// The version this code writes. Files with other versions are still read
    /// key by key.
    public static let currentSchema = 1
    /// The subtitle choice that means "no subtitles".
    public static let subtitlesOff = "off"

    public var schema: Int
    /// The number of the channel last tuned, to tune again at start.
    public var lastChannel: Int?
    /// The last channel's `LineupChannel.stateKey`, so a renumbered lineup
    /// still finds it (tried before `lastChannel`).
    public var lastChannelKey: String?
    /// 0…100.
    public var volume: Int {
        didSet { volume = Self.clampVolume(volume) }
    }
    public var muted: Bool
    /// Channel key (`LineupChannel.stateKey`) → chosen audio rendition, by
    /// language or name as the stream lists it.
    public var audio: [String: String]
    /// Channel key → chosen subtitles by language or name, or `subtitlesOff`.
    /// A channel not listed uses the stream's default.
    public var subtitles: [String: String]
    public var picture: PictureMode
    /// Deinterlace (the Picture tab): Auto, or Off.
    public var deinterlace: DeinterlaceMode
    /// Lip sync set in the Picture tab (ms); nil: the configuration's.
    public var lipSyncMilliseconds: Int?
    /// A run is under way: set at start, cleared at a clean exit. Found set at
    /// start, the run before ended uncleanly (a crash, a kill, a power cut).
    public var running: Bool
    /// The key of the channel last tuned (saved as the tune starts, before its
    /// first picture): the channel a run that ends uncleanly was playing.
    public var tuning: String?
    /// The recent unclean exits, oldest first (`CrashLoopBreaker` keeps them).
    public var uncleanExits: [UncleanExit]
    /// Wrong PINs and the PIN lockout, so a restart does not reset them.
    public var parental: ParentalLockout?
    /// Channel key → the URL of the source that played last, for channels with several.
    public var sources: [String: String]
    /// The favourite channels' keys (`Favourites`), in the order they were added.
    public var favourites: [String]
    /// The last channels watched, most recent first (`Recents`).
    public var recents: [String]
    /// The leveller's gain per channel (even loudness), the most recent first.
    public var levels: LevelMemory
    /// The reminders set in the guide, soonest first.
    public var reminders: [Reminder]

    public init(lastChannel: Int? = nil, lastChannelKey: String? = nil, volume: Int = 80, muted: Bool = false,
                audio: [String: String] = [:], subtitles: [String: String] = [:], picture: PictureMode = .fit) {
        self.schema = Self.currentSchema
        self.lastChannel = lastChannel
        self.lastChannelKey = lastChannelKey
        self.volume = Self.clampVolume(volume)
        self.muted = muted
        self.audio = audio
        self.subtitles = subtitles
        self.picture = picture
        deinterlace = .auto
        lipSyncMilliseconds = nil
        running = false
        tuning = nil
        uncleanExits = []
        parental = nil
        sources = [:]
        favourites = []
        recents = []
        levels = LevelMemory()
        reminders = []
    }

    static func clampVolume(_ volume: Int) -> Int { min(100, max(0, volume)) }

    /// The most entries each per-channel map keeps.
    public static let mostChannelChoices = 2048

    /// The maps cut to `mostChannelChoices`: first the keys not in `lineup` (the channels of
    /// a lineup since changed), then from the end in key order; `lineup` nil: in key order only.
    public func bounded(keeping lineup: Set<String>? = nil) -> ZapperState {
        func cut(_ map: [String: String]) -> [String: String] {
            guard map.count > Self.mostChannelChoices else { return map }
            let ordered = map.keys.sorted { a, b in
                let (inA, inB) = (lineup?.contains(a) ?? true, lineup?.contains(b) ?? true)
                return inA != inB ? inA : a < b
            }
            return Dictionary(uniqueKeysWithValues: ordered.prefix(Self.mostChannelChoices).map { ($0, map[$0]!) })
        }
        var state = self
        state.audio = cut(audio)
        state.subtitles = cut(subtitles)
        state.sources = cut(sources)
        return state
    }

    /// Whether a map is over its bound (a cheap test before `bounded`).
    public var isOverBound: Bool {
        [audio.count, subtitles.count, sources.count].contains { $0 > Self.mostChannelChoices }
    }

    enum CodingKeys: String, CodingKey {
        case schema, lastChannel, lastChannelKey, volume, muted, audio, subtitles, picture, deinterlace, lipSyncMilliseconds = "lipSyncMs", running, tuning, uncleanExits, parental, sources, favourites, recents, levels, reminders
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ZapperState()
        schema = try container.decodeIfPresent(Int.self, forKey: .schema) ?? Self.currentSchema
        lastChannel = try container.decodeIfPresent(Int.self, forKey: .lastChannel)
        lastChannelKey = try container.decodeIfPresent(String.self, forKey: .lastChannelKey)
        volume = Self.clampVolume(try container.decodeIfPresent(Int.self, forKey: .volume) ?? defaults.volume)
        muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? defaults.muted
        audio = try container.decodeIfPresent([String: String].self, forKey: .audio) ?? [:]
        subtitles = try container.decodeIfPresent([String: String].self, forKey: .subtitles) ?? [:]
        picture = try container.decodeIfPresent(PictureMode.self, forKey: .picture) ?? defaults.picture
        deinterlace = (try? container.decodeIfPresent(DeinterlaceMode.self, forKey: .deinterlace)) ?? defaults.deinterlace
        lipSyncMilliseconds = (try? container.decodeIfPresent(Int.self, forKey: .lipSyncMilliseconds)).flatMap { $0 }.map { LipSync(milliseconds: $0).milliseconds }
        // The crash-loop record and the PIN lockout are best effort: a bad entry is dropped, not the state.
        running = (try? container.decodeIfPresent(Bool.self, forKey: .running)) ?? false
        tuning = try? container.decodeIfPresent(String.self, forKey: .tuning)
        uncleanExits = Array(((try? container.decodeIfPresent([UncleanExit].self, forKey: .uncleanExits)) ?? [])
            .suffix(CrashLoopBreaker.keptExits))
        parental = try? container.decodeIfPresent(ParentalLockout.self, forKey: .parental)
        sources = ((try? container.decodeIfPresent([String: String].self, forKey: .sources)) ?? [:])
        favourites = Favourites(keys: (try? container.decodeIfPresent([String].self, forKey: .favourites)) ?? []).keys
        recents = Recents(keys: (try? container.decodeIfPresent([String].self, forKey: .recents)) ?? []).keys
        levels = (try? container.decodeIfPresent(LevelMemory.self, forKey: .levels)) ?? LevelMemory()
        reminders = Reminders((try? container.decodeIfPresent([Reminder].self, forKey: .reminders)) ?? []).entries
        self = bounded()
    }

    /// The state as it is stored: JSON, one key a line. The keys are not sorted: sorting a full
    /// state's 6,000 map keys (Foundation's key order) took 30 of the 50 ms its save took.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads `encoded()`'s JSON; throws `DecodingError` for anything that is
    /// not a JSON object of the right shape (empty, truncated, garbage).
    public static func decode(_ data: Data) throws -> ZapperState {
        try JSONDecoder().decode(ZapperState.self, from: data)
    }
}

extension LineupChannel {
    /// The key that per-channel choices are remembered under: the guide id
    /// when there is one (it survives renumbering and new stream URLs), else
    /// the stream URL.
    public var stateKey: String { guideID.map { "tvg:" + $0 } ?? url.absoluteString }
}
