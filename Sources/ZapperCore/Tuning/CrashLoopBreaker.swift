/// One run of zapper that ended without a clean exit: a crash, `kill -9`, the
/// watchdog, a power cut. Noted by the next start.
public struct UncleanExit: Codable, Equatable, Sendable {
    /// The channel it was tuning or playing (`LineupChannel.stateKey`), if any.
    public var channelKey: String?
    /// Wall-clock seconds since 1970 of the start that found it.
    public var at: Int

    public init(channelKey: String?, at: Int) {
        self.channelKey = channelKey
        self.at = at
    }
}

/// Breaks a crash loop: a channel that makes zapper end uncleanly again and
/// again would otherwise be tuned again at every restart (the last channel is
/// resumed), for good.
///
/// - Each start that finds the previous run unfinished (`ZapperState.running`)
///   notes an unclean exit with the channel that run was tuning.
/// - A channel that ended `exitsToSkip` of the unclean exits within
///   `windowSeconds` is an offender: the box starts on the default channel (or
///   the first that is not an offender), does not keep the offender warm, and
///   says why on the card.
/// - More unclean exits than that in the window delay the start, doubling
///   from 1 s up to `longestDelaySeconds`, so a loop that is not the
///   channel's fault does not spin.
///
/// Times are wall-clock seconds (the box may have no clock of its own across
/// a restart); an exit noted "in the future" after the clock was set back
/// still counts as recent.
public enum CrashLoopBreaker {
    public static let exitsToSkip = 3
    public static let windowSeconds = 600
    public static let longestDelaySeconds = 30
    /// The exits kept in the state.
    public static let keptExits = 16

    public struct Verdict: Equatable, Sendable {
        /// Unclean exits in the window, the one just found included.
        public var recentExits: Int
        /// The channels that ended `exitsToSkip` or more of them, with their counts.
        public var offenders: [String: Int]
        /// How long to wait before starting.
        public var delaySeconds: Int
    }

    /// At start: records the previous run's unclean exit (if it was one), drops
    /// exits older than the window, marks this run as running, and decides.
    /// The caller saves `state` before tuning anything.
    public static func start(_ state: inout ZapperState, now: Int) -> Verdict {
        if state.running {
            state.uncleanExits.append(UncleanExit(channelKey: state.tuning ?? state.lastChannelKey, at: now))
        }
        state.uncleanExits = Array(state.uncleanExits.filter { isRecent($0.at, now: now) }.suffix(keptExits))
        state.running = true
        var counts: [String: Int] = [:]
        for exit in state.uncleanExits {
            if let key = exit.channelKey { counts[key, default: 0] += 1 }
        }
        let recent = state.uncleanExits.count
        let beyond = recent - exitsToSkip
        let delay = beyond <= 0 ? 0 : min(longestDelaySeconds, 1 << min(beyond - 1, 16))
        return Verdict(recentExits: recent, offenders: counts.filter { $0.value >= exitsToSkip }, delaySeconds: delay)
    }

    /// An exit `at` counts when it is within the window of `now`, either side.
    static func isRecent(_ at: Int, now: Int) -> Bool {
        let (difference, overflow) = now.subtractingReportingOverflow(at)
        return !overflow && difference.magnitude <= UInt(windowSeconds)
    }

    /// The channel to start on: `preferred` unless it is an offender; then the
    /// default channel, else the first channel in the lineup that is not one
    /// (every channel an offender: `preferred` after all).
    public static func startChannel(preferred: Int, defaultChannel: Int?, lineup: [LineupChannel],
                                    offenders: [String: Int]) -> Int {
        let bad = { (number: Int) in lineup.first { $0.number == number }.map { offenders[$0.stateKey] != nil } ?? true }
        guard bad(preferred) else { return preferred }
        if let defaultChannel, !bad(defaultChannel) { return defaultChannel }
        return lineup.first { offenders[$0.stateKey] == nil }?.number ?? preferred
    }

    /// What the card says about a channel skipped at start.
    public static func note(skipped channel: LineupChannel, exits: Int) -> String {
        "Channel \(channel.number) was skipped: it stopped Zapper \(exits) times"
    }
}
