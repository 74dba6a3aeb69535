import Testing
@testable import ZapperCore

/// A tuner whose first tune has started (serial 1) at time 0.
func startedTuner(_ channels: [Int] = [1, 2, 3, 5, 10, 11, 12], start: Int = 2) -> (Tuner, [TunerEffect]) {
    var tuner = Tuner(channels: channels, start: start)
    let effects = tuner.handle(.tick, now: 0)
    return (tuner, effects)
}

/// The serial of the last `startTune` among `effects`.
func startedSerial(_ effects: [TunerEffect]) -> Int? {
    effects.compactMap { if case .startTune(_, let serial, _, _) = $0 { serial } else { nil } }.last
}

@Suite struct TunerTests {
    let notFound = PlaybackFailure(.http(status: 404), "http://h/2.m3u8: HTTP 404")
    @Test func startsTheStartChannelAndShowsItsCardUntilTheFirstFrame() {
        var (tuner, effects) = startedTuner()
        #expect(effects == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: 1, reason: .start)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .loading))
        #expect(tuner.view.tuned == nil)
        let done = tuner.handle(.tuneSucceeded(serial: 1), now: 700)
        #expect(done == [.presented(channel: 2, serial: 1, zapMilliseconds: 700),
                         .interstitialDismissed(channel: 2, result: .ok)])
        #expect(tuner.view.card == nil && tuner.view.tuned == 2)
        #expect(tuner.view.banner == TunerBanner(channel: 2, until: 4_700))
        _ = tuner.handle(.tick, now: 4_700)
        #expect(tuner.view.banner == nil && tuner.nextDeadline == nil)
    }

    /// The frame loop handles a key a moment after it arrived: the zap counts from its arrival.
    @Test func aZapCountsFromWhenTheKeyArrived() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)
        let flipped = tuner.handle(.flip(delta: 1, held: false), now: 1_000, pressedAt: 988)
        #expect(startedSerial(flipped) == 2)
        #expect(tuner.handle(.tuneSucceeded(serial: 2), now: 1_050).first == .presented(channel: 3, serial: 2, zapMilliseconds: 62))
        // A time after `now` is not believed.
        _ = tuner.handle(.flip(delta: 1, held: false), now: 2_000, pressedAt: 2_500)
        #expect(tuner.handle(.tuneSucceeded(serial: 3), now: 2_040).first == .presented(channel: 5, serial: 3, zapMilliseconds: 40))
    }

    @Test func aPressMovesTheTargetAtOnceAndCancelsTheOlderTune() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)
        let first = tuner.handle(.flip(delta: 1, held: false), now: 1_000)
        #expect(first == [.interstitialShown(channel: 3), .startTune(channel: 3, serial: 2, reason: .next)])
        let second = tuner.handle(.flip(delta: 1, held: false), now: 1_100)
        #expect(second == [.cancelTune(serial: 2), .interstitialDismissed(channel: 3, result: .superseded),
                           .interstitialShown(channel: 5), .startTune(channel: 5, serial: 3, reason: .next)])
        // The cancelled tune's late news is ignored.
        #expect(tuner.handle(.tuneSucceeded(serial: 2), now: 1_200).isEmpty)
        #expect(tuner.handle(.failed(serial: 2, PlaybackFailure(.other, "x")), now: 1_200).isEmpty)
        #expect(tuner.view.card == TunerCard(channel: 5, state: .loading) && tuner.view.tuned == 2)
        let done = tuner.handle(.tuneSucceeded(serial: 3), now: 1_500)
        #expect(done.first == .presented(channel: 5, serial: 3, zapMilliseconds: 400))
        #expect(tuner.view.tuned == 5)
    }

    @Test func wrapsAroundAtBothEnds() {
        var (tuner, _) = startedTuner([4, 7, 9], start: 9)
        _ = tuner.handle(.flip(delta: 1, held: false), now: 10)
        #expect(tuner.view.target == 4)
        _ = tuner.handle(.flip(delta: -1, held: false), now: 20)
        #expect(tuner.view.target == 9)
        _ = tuner.handle(.flip(delta: -4, held: false), now: 30)
        #expect(tuner.view.target == 7)
    }

    @Test func aHeldKeyTunesAtReleaseOrWhenTheTargetSettles() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        let press = tuner.handle(.flip(delta: 1, held: true), now: 1_000)
        #expect(press == [.interstitialShown(channel: 3)])
        _ = tuner.handle(.flip(delta: 1, held: true), now: 1_200)
        #expect(tuner.view.card == TunerCard(channel: 5, state: .loading))
        #expect(tuner.nextDeadline == 1_500)
        #expect(tuner.handle(.tick, now: 1_499).isEmpty)
        #expect(tuner.handle(.tick, now: 1_500) == [.startTune(channel: 5, serial: 2, reason: .next)])
        // Holding on moves the target again; release tunes at once.
        _ = tuner.handle(.flip(delta: -1, held: true), now: 1_600)
        let release = tuner.handle(.released, now: 1_650)
        #expect(release == [.startTune(channel: 3, serial: 3, reason: .previous)])
    }

    @Test func flippingBackToTheChannelOnScreenNeedsNoTune() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        _ = tuner.handle(.flip(delta: 1, held: true), now: 1_000)
        let back = tuner.handle(.flip(delta: -1, held: true), now: 1_100)
        #expect(back == [.interstitialDismissed(channel: 3, result: .superseded)])
        #expect(tuner.handle(.released, now: 1_200).isEmpty)
        #expect(tuner.view.card == nil && tuner.view.tuned == 2)
    }

    /// The player stopped channel 2 when channel 3's tune began; back on 2 before 3
    /// showed anything, 2 is tuned again: no card (its picture is on screen), but the
    /// watchdog, and a failure brings its error card and retries like any channel's.
    @Test func flippingBackBeforeTheTuneAwayCompletesTunesTheChannelOnScreenAgain() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        #expect(startedSerial(tuner.handle(.flip(delta: 1, held: false), now: 1_000)) == 2)
        let back = tuner.handle(.flip(delta: -1, held: false), now: 1_300)
        #expect(back == [.cancelTune(serial: 2), .interstitialDismissed(channel: 3, result: .superseded),
                         .startTune(channel: 2, serial: 3, reason: .previous)])
        #expect(tuner.view.card == nil && tuner.view.tuned == 2)
        #expect(tuner.nextDeadline == 1_300 + tuner.settings.watchdog)
        let timeout = tuner.handle(.tick, now: 11_300)
        #expect(timeout == [.loadFailed(channel: 2, serial: 3, failure: PlaybackFailure(.noPicture, "No picture after 10 s"))])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .error(PlaybackFailure(.noPicture, "No picture after 10 s"), retryAt: 13_300)))
        // The retry puts the loading card up (the picture on screen is stale by now).
        let retry = tuner.handle(.tick, now: 13_300)
        #expect(retry == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: 4, reason: .retry)])
        let shown = tuner.handle(.tuneSucceeded(serial: 4), now: 13_500)
        #expect(shown == [.presented(channel: 2, serial: 4, zapMilliseconds: 200), .interstitialDismissed(channel: 2, result: .ok)])
        #expect(tuner.view.card == nil)
        // Playing again: flipping away and back once more tunes nothing until a tune away starts.
        _ = tuner.handle(.flip(delta: 1, held: true), now: 14_000)
        #expect(tuner.handle(.flip(delta: -1, held: true), now: 14_100) == [.interstitialDismissed(channel: 3, result: .superseded)])
        #expect(tuner.handle(.released, now: 14_200).isEmpty)
    }

    @Test func numberEntryCommitsAfterAPauseOnOkOrWhenNoLongerNumberFits() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        // "1" could still become 10, 11 or 12: wait.
        #expect(tuner.handle(.digit(1), now: 1_000).isEmpty)
        #expect(tuner.view.digits == "1" && tuner.nextDeadline == 2_500)
        let committed = tuner.handle(.tick, now: 2_500)
        #expect(committed == [.interstitialShown(channel: 1), .startTune(channel: 1, serial: 2, reason: .number)])
        #expect(tuner.view.digits == nil)
        // "1", "1" → 11, nothing longer: at once.
        _ = tuner.handle(.digit(1), now: 3_000)
        #expect(startedSerial(tuner.handle(.digit(1), now: 3_100)) == 3)
        #expect(tuner.view.target == 11)
        // OK commits at once.
        _ = tuner.handle(.digit(1), now: 4_000)
        _ = tuner.handle(.ok, now: 4_100)
        #expect(tuner.view.target == 1)
    }

    @Test func aNumberNotInTheLineupFailsClearlyWithoutTuning() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        _ = tuner.handle(.digit(1), now: 1_000)
        #expect(tuner.handle(.digit(3), now: 1_100).isEmpty)
        #expect(tuner.view.card == TunerCard(channel: 13, state: .error(PlaybackFailure(.noSuchChannel(13), "no channel 13 in the lineup"), retryAt: nil)))
        #expect(tuner.view.target == 2 && tuner.view.tuned == 2)
        _ = tuner.handle(.tick, now: 5_100)
        #expect(tuner.view.card == nil)
        // A single digit that nothing can extend commits at once, too.
        _ = tuner.handle(.digit(4), now: 6_000)
        #expect(tuner.view.card?.state == .error(PlaybackFailure(.noSuchChannel(4), "no channel 4 in the lineup"), retryAt: nil))
        // The next press takes the card away.
        _ = tuner.handle(.flip(delta: 1, held: false), now: 6_100)
        #expect(tuner.view.card == TunerCard(channel: 3, state: .loading))
    }

    @Test func lastChannelTogglesBetweenTheTwoChannelsWatchedLast() {
        var (tuner, _) = startedTuner()
        #expect(tuner.handle(.lastChannel, now: 50).isEmpty)  // nothing watched yet
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 100)
        _ = tuner.handle(.digit(1), now: 200)
        _ = tuner.handle(.digit(0), now: 300)
        _ = tuner.handle(.tuneSucceeded(serial: 2), now: 900)
        #expect(tuner.view.tuned == 10)
        let back = tuner.handle(.lastChannel, now: 2_000)
        #expect(back == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: 3, reason: .last)])
        _ = tuner.handle(.tuneSucceeded(serial: 3), now: 2_500)
        _ = tuner.handle(.lastChannel, now: 3_000)
        #expect(tuner.view.target == 10)
        // While 10 loads, recall goes back to the picture on screen (which the player
        // stopped when 10's tune began: tuned again, with no card).
        let undo = tuner.handle(.lastChannel, now: 3_100)
        #expect(undo == [.cancelTune(serial: 4), .interstitialDismissed(channel: 10, result: .superseded),
                         .startTune(channel: 2, serial: 5, reason: .last)])
        #expect(tuner.view.target == 2 && tuner.view.card == nil)
    }

    @Test func aFailedChannelShowsAnErrorCardAndRetriesWithBackoff() {
        var (tuner, _) = startedTuner()
        let failed = tuner.handle(.failed(serial: 1, notFound), now: 1_000)
        #expect(failed == [.loadFailed(channel: 2, serial: 1, failure: notFound),
                           .interstitialDismissed(channel: 2, result: .failed)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .error(notFound, retryAt: 3_000)))
        var now = 1_000
        var waits: [Int] = []
        for serial in 2...8 {
            let due = tuner.nextDeadline!
            waits.append(due - now)
            let retry = tuner.handle(.tick, now: due)
            #expect(retry == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: serial, reason: .retry)])
            now = due + 100
            _ = tuner.handle(.failed(serial: serial, notFound), now: now)
        }
        #expect(waits == [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
        // Flipping away from the error card works, and forgets the failure.
        let flip = tuner.handle(.flip(delta: 1, held: false), now: now + 10)
        #expect(flip == [.interstitialShown(channel: 3), .startTune(channel: 3, serial: 9, reason: .next)])
    }

    @Test func theWatchdogTurnsSilenceIntoATimeoutEvenWhenTheTickIsLate() {
        var (tuner, _) = startedTuner()
        #expect(tuner.nextDeadline == 10_000)
        // The tick comes 5 s late: the timeout happened at 10 s, the retry at 12 s.
        let late = tuner.handle(.tick, now: 15_000)
        #expect(late == [.loadFailed(channel: 2, serial: 1, failure: PlaybackFailure(.noPicture, "No picture after 10 s")),
                         .interstitialDismissed(channel: 2, result: .timeout),
                         .interstitialShown(channel: 2), .startTune(channel: 2, serial: 2, reason: .retry)])
        #expect(tuner.nextDeadline == 22_000)
        // The timed-out serial's frame is too late.
        #expect(tuner.handle(.tuneSucceeded(serial: 1), now: 15_001).isEmpty)
    }

    @Test func okRetriesAFailedTargetAtOnce() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.failed(serial: 1, PlaybackFailure(.unreachable, "reset")), now: 100)
        #expect(startedSerial(tuner.handle(.ok, now: 200)) == 2)
        _ = tuner.handle(.failed(serial: 2, PlaybackFailure(.unreachable, "reset")), now: 300)
        #expect(startedSerial(tuner.handle(.retry, now: 400)) == 3)
    }

    @Test func retryDelaysDoubleUpToTheCap() {
        let settings = TunerSettings()
        #expect((1...7).map(settings.retryDelay(attempt:)) == [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
    }
}
