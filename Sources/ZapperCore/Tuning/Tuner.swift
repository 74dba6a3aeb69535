/// The channel-flipping rules, as a value with injected time.
///
/// The player feeds it every input with the current time, performs the
/// returned effects in order, redraws `view`, and delivers `.tick` at
/// `nextDeadline`. Rules:
/// - Every press moves the target at once; the card for the new target
///   appears in the same call. Only the latest target is tuned: moving the
///   target cancels the tune of the old one, so at most one tune is active and
///   it is always for the target.
/// - Each started tune ends exactly once, with `presented`, `loadFailed`
///   (engine failure or watchdog timeout) or `cancelTune`; news about any other
///   serial is ignored.
/// - The player stops the channel on screen when a tune of another one starts
///   (its last picture stays). Coming back to it before that tune completes
///   cancels that tune and tunes the channel on screen again: with no card (its
///   picture is the one showing) but with the watchdog, and like any tune it
///   ends with `presented` or `loadFailed` (then its error card and retries).
/// - The loading card is dismissed `ok`/`failed`/`timeout` only by its tune's
///   end, or `superseded` when the target moves. A failed target shows an
///   error card and is retried with backoff while it stays the target;
///   flipping on keeps working.
/// - A channel with several sources (`sources`) is tuned from the one that worked
///   last. When a loading tune fails (the engine or the watchdog: `sourceWatchdog`
///   but for the last source) and sources are left untried, the next one is tuned at
///   once (`sourceFailover`, then `startTune`): the card stays, saying which source it tries; no error card, no
///   backoff. When every source has failed, the error card and retries as above,
///   each retry again from the source that worked last.
/// - Timers that fell due before `now` fire first, in time order, as of their
///   due time, so a late tick gives the same result as a punctual one.
public struct Tuner: Sendable {
    public let settings: TunerSettings
    /// The lineup's channel numbers, in flipping order.
    public let channels: [Int]
    /// The channels CH± steps through (`FlipWithin`), a subset of `channels`; nil or empty: all.
    public var flipRing: [Int]?

    private(set) var target: Int
    private var targetReason: TuneReason = .start
    /// When the viewer asked for the target (for zap times).
    private var askedAt: Int?
    /// The channel on screen, and the one on screen before it.
    private(set) var tuned: Int?
    private var previousTuned: Int?
    /// The channel on screen was stopped: a tune of another channel started
    /// since its first frame (its last picture stays on screen).
    private var tunedStopped = false
    /// In standby (`.sleep`): no tune until `.wake`.
    private var asleep = false

    /// How many sources each channel has (missing: one).
    private let sourceCounts: [Int: Int]
    /// The source of each channel that presented a picture last (missing: the first).
    private var worked: [Int: Int]
    private(set) var active: ActiveTune?
    private var nextSerial = 1
    /// The channel whose loading card is up.
    private(set) var interstitial: Int?

    /// A held key moved the target: tune at this time or at release.
    private var settleAt: Int?
    /// The target's failure: why, and when the next attempt starts.
    private(set) var failure: (failure: PlaybackFailure, retryAt: Int)?
    private var attempts = 0
    /// The tune whose picture is on screen, and when its first frame came.
    private var playing: (serial: Int, since: Int)?
    /// Stalls of the target in a row (within `stallMemory` of a good tune): the backoff of its re-tunes.
    private var stalls = 0

    private(set) var entry = NumberEntry()
    /// A typed number that is not in the lineup, shown until `until`.
    private(set) var missing: (number: Int, until: Int)?
    private(set) var banner: TunerBanner?
    /// `handle` has been called: the first tune has started.
    private var begun = false

    /// A tuner showing nothing yet; its first `handle` (any input, `.tick`
    /// included) starts the tune of `start` (or of the first channel, if `start`
    /// is not in the lineup). Repeated numbers in `channels` keep their first place.
    /// `sources`: how many sources a channel has (missing or less than 1: one);
    /// `worked`: the source to start each channel from (out of range: the first).
    public init(channels: [Int], start: Int, settings: TunerSettings = .init(),
                sources: [Int: Int] = [:], worked: [Int: Int] = [:]) {
        precondition(!channels.isEmpty, "a tuner needs at least one channel")
        var seen = Set<Int>()
        self.channels = channels.filter { seen.insert($0).inserted }
        self.settings = settings
        self.target = channels.contains(start) ? start : channels[0]
        sourceCounts = sources.filter { $0.value > 1 }
        self.worked = worked.filter { $0.value > 0 && $0.value < (sources[$0.key] ?? 1) }
    }

    /// How many sources `channel` has.
    public func sourceCount(of channel: Int) -> Int { sourceCounts[channel] ?? 1 }

    /// The source of `channel` that presented a picture last (0: the first), where its tunes start.
    public func source(of channel: Int) -> Int { worked[channel] ?? 0 }

    /// The tune under way, waiting for its first picture (nil: none).
    public var loadingSerial: Int? { active?.serial }

    /// When to deliver `.tick` next; `Int.min` (at once) before the first tune
    /// has started; nil when nothing is waiting on time.
    public var nextDeadline: Int? {
        begun ? timerDeadline : .min
    }

    /// The earliest timer.
    private var timerDeadline: Int? {
        [active?.deadline, settleAt, failure?.retryAt, entry.deadline, missing?.until, banner?.until]
            .compactMap { $0 }.min()
    }

    /// Applies `input` at time `now` and returns what the player must do, in order.
    /// `pressedAt`: when the key behind `input` reached the player, a moment before the frame
    /// loop handles it at `now`; a zap's time counts from there (default `now`).
    public mutating func handle(_ input: TunerInput, now: Int, pressedAt: Int? = nil) -> [TunerEffect] {
        var out: [TunerEffect] = []
        begun = true
        fireTimers(upTo: now, &out)
        apply(input, now: now, pressedAt: min(pressedAt ?? now, now), &out)
        tuneIfWanted(now: now, &out)
        return out
    }

    // MARK: - Inputs

    private mutating func apply(_ input: TunerInput, now: Int, pressedAt: Int, _ out: inout [TunerEffect]) {
        switch input {
        case .tick, .tuneSucceeded, .failed: break
        default: missing = nil
        }
        switch input {
        case .flip(let delta, let held):
            entry.clear()
            let next = Self.step(from: target, by: delta, in: channels, ring: flipRing)
            moveTarget(to: next, reason: delta < 0 ? .previous : .next, now: now, askedAt: pressedAt, &out)
            settleAt = held ? now + settings.settleDelay : nil
        case .tick:
            break
        case .released:
            settleAt = nil
        case .digit(let digit):
            guard (0...9).contains(digit) else { return }
            if entry.type(digit, now: now, settings: settings, channels: channels) { commitEntry(now: now, askedAt: pressedAt, &out) }
        case .ok:
            if !entry.isEmpty { commitEntry(now: now, askedAt: pressedAt, &out) } else if failure != nil { retryNow(now: now, &out) } else { showBanner(now: now) }
        case .lastChannel:
            entry.clear()
            let recall = tuned != target ? tuned : previousTuned
            guard let recall, channels.contains(recall) else { return }
            moveTarget(to: recall, reason: .last, now: now, askedAt: pressedAt, &out)
            settleAt = nil
        case .retry:
            if failure != nil { retryNow(now: now, &out) }
        case .select(let number):
            entry.clear()
            guard channels.contains(number) else { return }
            moveTarget(to: number, reason: .list, now: now, askedAt: pressedAt, &out)
            settleAt = nil
        case .sleep:
            if let tune = active { out.append(.cancelTune(serial: tune.serial)) }
            dismissInterstitial(.superseded, &out)
            (asleep, active, failure, playing, banner) = (true, nil, nil, nil, nil)
            tunedStopped = tuned != nil
        case .wake:
            guard asleep else { return }
            asleep = false
            retryNow(now: now, &out)
        case .info:
            showBanner(now: now)
        case .rejoinLive:
            guard playing != nil, active == nil, failure == nil, tuned == target, !tunedStopped else { return }
            (playing, tunedStopped, targetReason, askedAt) = (nil, true, .live, pressedAt)
        case .tuneSucceeded(let serial):
            guard let tune = active, tune.serial == serial else { return }
            active = nil
            out.append(.presented(channel: tune.channel, serial: serial, zapMilliseconds: now - (askedAt ?? now)))
            dismissInterstitial(.ok, &out)
            if tuned != tune.channel { previousTuned = tuned; tuned = tune.channel }
            tunedStopped = false
            attempts = 0
            playing = (serial, now)
            if sourceCount(of: tune.channel) > 1 { worked[tune.channel] = tune.source }
            banner = TunerBanner(channel: tune.channel, until: now + settings.bannerDuration)
        case .failed(let serial, let failure):
            if let tune = active, tune.serial == serial {
                fail(tune, failure, result: .failed, now: now, &out)
            } else if failure.kind.retunesWhilePlaying {
                stalled(serial: serial, failure, now: now, &out)
            }
        }
    }

    /// The channel on screen stopped: its playback goes, and it is tuned again (its loading
    /// card over the stale picture); a second stall soon after waits with the error card.
    private mutating func stalled(serial: Int, _ failure: PlaybackFailure, now: Int, _ out: inout [TunerEffect]) {
        guard let playing, playing.serial == serial, active == nil, self.failure == nil, tuned == target, !tunedStopped else { return }
        self.playing = nil
        if now - playing.since > settings.stallMemory { stalls = 0 }
        stalls += 1
        out.append(.loadFailed(channel: target, serial: serial, failure: failure))
        tunedStopped = true
        targetReason = .retry
        askedAt = now
        if stalls > 1 {
            self.failure = (failure, now + settings.retryDelay(attempt: stalls - 1))
        } else {
            showCard(&out)
        }
    }

    /// `askedAt`: when the viewer asked (a key, or the entry's pause running out).
    private mutating func commitEntry(now: Int, askedAt asked: Int, _ out: inout [TunerEffect]) {
        guard let number = entry.take() else { return }
        if channels.contains(number) {
            moveTarget(to: number, reason: .number, now: now, askedAt: asked, &out)
            settleAt = nil
        } else {
            missing = (number, now + settings.bannerDuration)
        }
    }

    private mutating func showBanner(now: Int) {
        if let tuned, interstitial == nil, failure == nil {
            banner = TunerBanner(channel: tuned, until: now + settings.bannerDuration)
        }
    }

    // MARK: - The target and its tune

    /// The tuner wants a tune of the target started (when not held): it is not
    /// on screen, or it is but was stopped for a tune that did not complete.
    private var wantsTune: Bool {
        !asleep && active == nil && failure == nil && (target != tuned || tunedStopped)
    }

    private mutating func moveTarget(to channel: Int, reason: TuneReason, now: Int, askedAt asked: Int, _ out: inout [TunerEffect]) {
        if channel == target {
            // Asking again for a failed target retries it; otherwise nothing changes.
            if failure != nil { retryNow(now: now, &out); targetReason = reason }
            return
        }
        if let tune = active {
            out.append(.cancelTune(serial: tune.serial))
            active = nil
        }
        dismissInterstitial(.superseded, &out)
        failure = nil
        attempts = 0
        stalls = 0
        banner = nil
        target = channel
        targetReason = reason
        askedAt = asked
        if target != tuned { showCard(&out) }
    }

    private mutating func tuneIfWanted(now: Int, _ out: inout [TunerEffect]) {
        guard wantsTune, settleAt == nil else { return }
        begin(source: source(of: target), tried: 1, now: now, &out)
    }

    /// Starts the target's tune from `source`, the `tried`th of this attempt.
    private mutating func begin(source: Int, tried: Int, now: Int, _ out: inout [TunerEffect]) {
        let serial = nextSerial
        nextSerial += 1
        if askedAt == nil { askedAt = now }
        active = ActiveTune(serial: serial, channel: target, deadline: now + settings.watchdog(tried: tried, of: sourceCount(of: target)), source: source, tried: tried)
        if target != tuned {
            tunedStopped = tuned != nil
            showCard(&out)
        }
        out.append(.startTune(channel: target, serial: serial, reason: tried > 1 ? .failover : targetReason, source: source))
    }

    private mutating func fail(_ tune: ActiveTune, _ failure: PlaybackFailure, result: InterstitialResult, now: Int,
                               _ out: inout [TunerEffect]) {
        active = nil
        let count = sourceCount(of: tune.channel)
        if tune.tried < count {
            // Not the channel's failure (`loadFailed`) while a source is left: that source's.
            out.append(.cancelTune(serial: tune.serial))
            let next = (tune.source + 1) % count
            // The card comes over the channel's own stale picture too, saying which source it tries.
            showCard(&out)
            out.append(.sourceFailover(channel: tune.channel, from: tune.source, to: next, failure: failure))
            begin(source: next, tried: tune.tried + 1, now: now, &out)
            return
        }
        out.append(.loadFailed(channel: tune.channel, serial: tune.serial, failure: failure))
        dismissInterstitial(result, &out)
        attempts += 1
        self.failure = (failure, now + settings.retryDelay(attempt: attempts))
    }

    /// Clears the target's failure so that it is tuned again; its loading card
    /// comes back at once (for a channel on screen again too: its picture is stale).
    private mutating func retryNow(now: Int, _ out: inout [TunerEffect]) {
        failure = nil
        targetReason = .retry
        askedAt = now
        if target != tuned || tunedStopped { showCard(&out) }
    }

    /// The target's loading card comes up, unless it is up already.
    private mutating func showCard(_ out: inout [TunerEffect]) {
        guard interstitial == nil else { return }
        interstitial = target
        out.append(.interstitialShown(channel: target))
    }

    private mutating func dismissInterstitial(_ result: InterstitialResult, _ out: inout [TunerEffect]) {
        guard let channel = interstitial else { return }
        interstitial = nil
        out.append(.interstitialDismissed(channel: channel, result: result))
    }

    // MARK: - Time

    /// Fires every timer due at or before `now`, earliest first, each as of its
    /// due time.
    private mutating func fireTimers(upTo now: Int, _ out: inout [TunerEffect]) {
        tuneIfWanted(now: now, &out)
        while let due = timerDeadline, due <= now {
            if let at = entry.deadline, at <= due { commitEntry(now: at, askedAt: at, &out) }
            if let at = settleAt, at <= due { settleAt = nil }
            if let at = failure?.retryAt, at <= due { retryNow(now: at, &out) }
            if let tune = active, tune.deadline <= due {
                let waited = settings.watchdog(tried: tune.tried, of: sourceCount(of: tune.channel))
                fail(tune, PlaybackFailure(.noPicture, "No picture after \(waited / 1000) s"), result: .timeout, now: due, &out)
            }
            if let at = missing?.until, at <= due { missing = nil }
            if let at = banner?.until, at <= due { banner = nil }
            tuneIfWanted(now: due, &out)
        }
    }
}
