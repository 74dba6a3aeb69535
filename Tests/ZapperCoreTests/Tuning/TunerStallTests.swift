import Testing
@testable import ZapperCore

/// A playing channel whose pictures stop is tuned again: at once the first
/// time (its loading card over the stale picture), then with backoff and the
/// error card; a stall long after the last good tune starts the backoff afresh.
@Suite struct TunerStallTests {
    let stall = PlaybackFailure(.frozen, "no picture for 8 s; tuning it again")
    @Test func aStallRetunesAtOnceThenWithBackoff() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)

        let first = tuner.handle(.failed(serial: 1, stall), now: 10_000)
        #expect(first == [.loadFailed(channel: 2, serial: 1, failure: stall),
                          .interstitialShown(channel: 2), .startTune(channel: 2, serial: 2, reason: .retry)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .loading))
        // It comes back; the card goes.
        #expect(tuner.handle(.tuneSucceeded(serial: 2), now: 10_400).contains(.interstitialDismissed(channel: 2, result: .ok)))

        // Stalls again soon: the error card, a retry after 2 s, then 4 s.
        let second = tuner.handle(.failed(serial: 2, stall), now: 20_000)
        #expect(second == [.loadFailed(channel: 2, serial: 2, failure: stall)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .error(stall, retryAt: 22_000)))
        #expect(startedSerial(tuner.handle(.tick, now: 22_000)) == 3)
        _ = tuner.handle(.tuneSucceeded(serial: 3), now: 22_300)
        _ = tuner.handle(.failed(serial: 3, stall), now: 30_000)
        #expect(tuner.view.card == TunerCard(channel: 2, state: .error(stall, retryAt: 34_000)))
        #expect(startedSerial(tuner.handle(.tick, now: 33_999)) == nil)
        #expect(startedSerial(tuner.handle(.tick, now: 34_000)) == 4)

        // Played well for longer than the stall memory: the next stall is retried at once again.
        _ = tuner.handle(.tuneSucceeded(serial: 4), now: 34_500)
        let later = tuner.handle(.failed(serial: 4, stall), now: 34_500 + TunerSettings().stallMemory + 1)
        #expect(startedSerial(later) == 5)
    }

    /// The picture watch's failures retune a playing channel as a stall does; other failures of a playing tune do not.
    @Test(arguments: [PlaybackFailure.Kind.frozenPicture, .blackPicture])
    func aFrozenOrBlackPictureRetunesLikeAStall(kind: PlaybackFailure.Kind) {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)
        let failure = PlaybackFailure(kind, "the picture watch")
        #expect(tuner.handle(.failed(serial: 1, failure), now: 10_000)
            == [.loadFailed(channel: 2, serial: 1, failure: failure), .interstitialShown(channel: 2), .startTune(channel: 2, serial: 2, reason: .retry)])
        _ = tuner.handle(.tuneSucceeded(serial: 2), now: 10_400)
        #expect(tuner.handle(.failed(serial: 2, PlaybackFailure(.decode, "a bad segment")), now: 12_000).isEmpty)
    }

    @Test func aStallOfAnotherTuneOrWhileLoadingIsIgnored() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 9_500)
        // A serial that is not on screen.
        #expect(tuner.handle(.failed(serial: 7, stall), now: 12_000).isEmpty)
        // While the next channel loads, the old one's stall changes nothing.
        let flip = tuner.handle(.flip(delta: 1, held: false), now: 13_000)
        #expect(startedSerial(flip) == 2)
        #expect(tuner.handle(.failed(serial: 1, stall), now: 14_000).isEmpty)
        #expect(tuner.view.card == TunerCard(channel: 3, state: .loading))
        // Told twice, acted on once.
        _ = tuner.handle(.tuneSucceeded(serial: 2), now: 14_500)
        #expect(!tuner.handle(.failed(serial: 2, stall), now: 30_000).isEmpty)
        #expect(tuner.handle(.failed(serial: 2, stall), now: 30_010).isEmpty)
    }

    @Test func anyFailureOfTheLoadingTuneFailsIt() {
        var (tuner, _) = startedTuner()
        let effects = tuner.handle(.failed(serial: 1, stall), now: 900)
        #expect(effects.first == .loadFailed(channel: 2, serial: 1, failure: stall))
        #expect(tuner.view.card?.state == .error(stall, retryAt: 900 + TunerSettings().retryDelay(attempt: 1)))
    }

    @Test func otherFailuresOfAPlayingTuneLeaveItPlaying() {
        var (tuner, _) = startedTuner()
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)
        let segment = PlaybackFailure(.http(status: 404), "segment 7: http://h/7.ts: HTTP 404")
        #expect(tuner.handle(.failed(serial: 1, segment), now: 4_000).isEmpty)
        // The server's playlist not moving is told, but the picture still plays from what arrived.
        #expect(tuner.handle(.failed(serial: 1, PlaybackFailure(.stalled, "not moved for 12 s")), now: 5_000).isEmpty)
        #expect(tuner.handle(.failed(serial: 1, PlaybackFailure(.noPicture, "no picture for 2 s")), now: 6_000).isEmpty)
        #expect(tuner.view.card == nil)
        #expect(tuner.view.tuned == 2)
    }
}

/// `live` behind the live edge: the channel on screen tuned again, no card, like any tune ended
/// by its first picture; nothing while a tune loads or before a picture.
@Suite struct TunerRejoinTests {
    @Test func theChannelOnScreenIsTunedAgainWithoutACard() {
        var (tuner, _) = startedTuner()
        #expect(tuner.handle(.rejoinLive, now: 300).isEmpty, "still loading")
        _ = tuner.handle(.tuneSucceeded(serial: 1), now: 500)
        #expect(tuner.handle(.rejoinLive, now: 9_000) == [.startTune(channel: 2, serial: 2, reason: .live)])
        #expect(tuner.view.card == nil, "its picture stays up")
        #expect(tuner.handle(.rejoinLive, now: 9_100).isEmpty, "once")
        #expect(tuner.handle(.tuneSucceeded(serial: 2), now: 9_300) == [.presented(channel: 2, serial: 2, zapMilliseconds: 300)])
    }
}
