/// The words a `Tuner` hears, says and shows. Times are
/// milliseconds on one monotonic clock (the event log's `t_ms`).

/// Why a tune was started; the `reason` of the `tune` event.
public enum TuneReason: String, Sendable, Equatable {
    case start, next, previous, number, last, retry
    /// Chosen from the panel's channel list.
    case list
    /// The channel's next source, after the one tried failed.
    case failover
    /// The channel on screen, played behind live, tuned again at its live edge (`live`).
    case live
}

/// How an interstitial card ended; the `result` of `interstitial-dismissed`.
public enum InterstitialResult: String, Sendable, Equatable {
    /// The target's first frame was presented.
    case ok
    /// The engine reported a failure; an error card follows.
    case failed
    /// The watchdog gave up waiting for a first frame; an error card follows.
    case timeout
    /// The viewer moved on before the tune completed.
    case superseded
}

/// Something that happened to the tuner: a viewer's action, news from the
/// media engine, or the passing of time.
public enum TunerInput: Sendable, Equatable {
    /// Move the target by `delta` channels, wrapping at the ends of the lineup.
    /// `held` marks a key-repeat flip: the target moves but the tune waits for
    /// `.released` or for the target to stay put for `settleDelay`.
    case flip(delta: Int, held: Bool)
    /// The held key was let go: tune the target now.
    case released
    /// A digit 0…9 of number entry (others are ignored).
    case digit(Int)
    /// Commits number entry at once; without entry, retries a failed target,
    /// otherwise shows the banner.
    case ok
    /// Last-channel recall: back to the channel on screen while another loads,
    /// otherwise to the channel watched before the current one.
    case lastChannel
    /// Retry a failed target now instead of at its retry time.
    case retry
    /// Go to this channel (picked from a list); a number not in the lineup is ignored.
    case select(Int)
    /// Show the banner of the channel on screen.
    case info
    /// The channel on screen plays behind its live edge: tune it again at the edge, with no
    /// card (its picture stays until the live one replaces it). Nothing while a tune loads.
    case rejoinLive
    /// The first frame of tune `serial` was presented.
    case tuneSucceeded(serial: Int)
    /// Tune `serial` reports a failure, whoever found it (the engine, the player's watch).
    /// While it loads, the tune fails. Once it plays, a `.frozen` failure (no new picture for
    /// `TunerSettings.stallAfter`), or a frozen or black picture (`PictureWatch`), has it tuned again, at once the first time, then with
    /// backoff; other failures of a playing tune leave it playing (what arrived still plays).
    case failed(serial: Int, PlaybackFailure)
    /// Time passed; deliver at `Tuner.nextDeadline`.
    case tick
    /// Standby: what loads is cancelled, what plays counts as stopped, and nothing is tuned until `.wake`.
    case sleep
    /// Out of standby: the target is tuned again.
    case wake
}

/// What the player must do, in order.
public enum TunerEffect: Sendable, Equatable {
    /// Open a session for `channel` from its source `source` (0: the first, as
    /// `LineupChannel.playing(source:)` counts), tagged `serial`; log a `tune` event.
    case startTune(channel: Int, serial: Int, reason: TuneReason, source: Int = 0)
    /// Source `from` of `channel` failed (`failure`) while it loaded; source `to` is tried
    /// next, at once (the `startTune` follows; the failed tune's `cancelTune` came before).
    /// Log `source-failover`, not `load-failed`: the channel has not failed.
    case sourceFailover(channel: Int, from: Int, to: Int, failure: PlaybackFailure)
    /// Drop the session `serial`: its completion will be ignored.
    case cancelTune(serial: Int)
    /// Tune `serial` completed: its first frame is on screen, `zapMilliseconds`
    /// after the press (or retry) that asked for it. Log `first-frame`.
    case presented(channel: Int, serial: Int, zapMilliseconds: Int)
    /// Tune `serial` completed with a failure (from the engine, or the watchdog's
    /// timeout) and the channel has no source left to try in this attempt. Drop the
    /// session if it still runs; log `load-failed`.
    case loadFailed(channel: Int, serial: Int, failure: PlaybackFailure)
    /// The loading card for `channel` appeared.
    case interstitialShown(channel: Int)
    /// The loading card for `channel` went away.
    case interstitialDismissed(channel: Int, result: InterstitialResult)

    public var isSourceFailover: Bool {
        if case .sourceFailover = self { true } else { false }
    }
}

/// The card over the video: the target while it loads, or why it failed.
public struct TunerCard: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case loading
        /// `retryAt` is when the next attempt starts on its own (nil: never,
        /// as for a number that is not in the lineup).
        case error(PlaybackFailure, retryAt: Int?)
    }

    public var channel: Int
    public var state: State
    /// While loading after a source failed: which source is tried now ("Trying source 2 of 3").
    public var trying: SourceTry?

    public init(channel: Int, state: State, trying: SourceTry? = nil) {
        self.channel = channel
        self.state = state
        self.trying = trying
    }
}

/// The source of a channel being tried, and how many it has (both counted from 1, as shown).
public struct SourceTry: Sendable, Equatable {
    public var source: Int
    public var count: Int

    public init(source: Int, count: Int) {
        self.source = source
        self.count = count
    }

    /// "Trying source 2 of 3".
    public var words: String { "Trying source \(source) of \(count)" }
}

/// The channel banner (number, name, now/next) shown after a tune or on Info.
public struct TunerBanner: Sendable, Equatable {
    public var channel: Int
    /// When it goes away.
    public var until: Int

    public init(channel: Int, until: Int) {
        self.channel = channel
        self.until = until
    }
}

/// Everything the screen shows of the tuner; draw it after every `handle`.
public struct TunerView: Sendable, Equatable {
    /// The channel the viewer asked for last.
    public var target: Int
    /// The card over the video, if any: the target's loading or error card, or
    /// for a few seconds after a typed number that is not in the lineup, an
    /// error card "No channel N" for that number (the target does not move).
    public var card: TunerCard?
    /// Digits typed so far in number entry, if any.
    public var digits: String?
    public var banner: TunerBanner?
    /// The channel whose picture is on screen (for the logo bug); nil before
    /// the first tune completes.
    public var tuned: Int?
}

/// The tuner's timings, in milliseconds.
public struct TunerSettings: Sendable, Equatable {
    /// A tune without a first frame for this long has failed.
    public var watchdog = 10_000
    /// A source of a channel with sources left to try that gives no first frame for this long
    /// is given up for the next (a dead host often hangs rather than refuses); the last gets `watchdog`.
    public var sourceWatchdog = 5_000

    /// How long the `tried`th source of an attempt, of `count`, has for its first frame.
    func watchdog(tried: Int, of count: Int) -> Int {
        tried < count ? min(sourceWatchdog, watchdog) : watchdog
    }
    /// A held key's target is tuned once it has stayed put this long.
    public var settleDelay = 300
    /// Number entry commits this long after the last digit.
    public var entryTimeout = 1_500
    /// Number entry commits at once at this many digits.
    public var maxDigits = 4
    /// The first retry of a failed channel; each next one waits twice as long…
    public var retryBase = 2_000
    /// …but never longer than this.
    public var retryCap = 30_000
    /// How long the banner and the "No channel N" card stay.
    public var bannerDuration = 4_000
    /// A playing channel with no new picture for this long has stalled (the player tells the tuner).
    public var stallAfter = 8_000
    /// Stalls this long after the last good tune start the backoff afresh.
    public var stallMemory = 300_000

    public init() {}

    /// The wait before retry number `attempt` (1-based): 2 s, 4 s, 8 s … capped.
    public func retryDelay(attempt: Int) -> Int {
        var delay = retryBase
        for _ in 1..<max(attempt, 1) where delay < retryCap { delay *= 2 }
        return min(delay, retryCap)
    }
}

/// The tuner's tune under way (`Tuner`'s own bookkeeping).
struct ActiveTune: Sendable {
    var serial: Int
    var channel: Int
    var deadline: Int
    /// The channel's source it plays from (0: the first).
    var source = 0
    /// Sources tried for this attempt at the channel, this one included.
    var tried = 1
}
