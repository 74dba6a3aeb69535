import Testing
@testable import ZapperCore

/// A channel with several sources: a loading tune that fails moves on to the
/// next source at once, under the same card ("Trying source 2 of 3"); the one
/// that worked is where the channel's tunes start; when all fail, the error
/// card and retries as for any channel.
@Suite struct TunerFailoverTests {
    let dead = PlaybackFailure(.http(status: 503), "http://a/2.m3u8: HTTP 503")

    @Test func aFailedSourceHandsOverToTheNextAtOnceUnderTheSameCard() {
        var tuner = Tuner(channels: [1, 2, 3], start: 2, sources: [2: 3])
        #expect(tuner.handle(.tick, now: 0) == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: 1, reason: .start, source: 0)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .loading), "the first source: no line about sources")

        let failed = tuner.handle(.failed(serial: 1, dead), now: 300)
        #expect(failed == [.cancelTune(serial: 1),
                           .sourceFailover(channel: 2, from: 0, to: 1, failure: dead),
                           .startTune(channel: 2, serial: 2, reason: .failover, source: 1)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .loading, trying: SourceTry(source: 2, count: 3)))
        #expect(tuner.view.card?.trying?.words == "Trying source 2 of 3")

        let done = tuner.handle(.tuneSucceeded(serial: 2), now: 900)
        #expect(done == [.presented(channel: 2, serial: 2, zapMilliseconds: 900), .interstitialDismissed(channel: 2, result: .ok)],
                "the zap counts from the press, across the failover")
        #expect(tuner.source(of: 2) == 1)

        // Away and back: tuned from the source that worked.
        _ = tuner.handle(.flip(delta: 1, held: false), now: 2_000)
        _ = tuner.handle(.tuneSucceeded(serial: 3), now: 2_300)
        #expect(tuner.handle(.flip(delta: -1, held: false), now: 3_000).contains(.startTune(channel: 2, serial: 4, reason: .previous, source: 1)))
    }

    /// A source that hangs is given up after `sourceWatchdog` while sources are left; the last
    /// has the whole watchdog.
    @Test func theWatchdogFailsASourceOverToo() {
        var tuner = Tuner(channels: [1, 2], start: 1, sources: [1: 2])
        _ = tuner.handle(.tick, now: 0)
        #expect(tuner.nextDeadline == 5_000)
        let timeout = PlaybackFailure(.noPicture, "No picture after 5 s")
        #expect(tuner.handle(.tick, now: 5_000) == [.cancelTune(serial: 1),
                                                    .sourceFailover(channel: 1, from: 0, to: 1, failure: timeout),
                                                    .startTune(channel: 1, serial: 2, reason: .failover, source: 1)])
        #expect(tuner.nextDeadline == 15_000, "the last source has the whole watchdog")
        #expect(tuner.handle(.tick, now: 15_000).first == .loadFailed(channel: 1, serial: 2, failure: PlaybackFailure(.noPicture, "No picture after 10 s")))
    }

    @Test func whenEverySourceFailsTheErrorCardAndRetriesStartFromTheRememberedSource() {
        var tuner = Tuner(channels: [1, 2], start: 2, sources: [2: 3], worked: [2: 2])
        #expect(tuner.handle(.tick, now: 0).last == .startTune(channel: 2, serial: 1, reason: .start, source: 2))
        #expect(tuner.handle(.failed(serial: 1, dead), now: 100).last == .startTune(channel: 2, serial: 2, reason: .failover, source: 0))
        #expect(tuner.view.card?.trying == SourceTry(source: 1, count: 3))
        #expect(tuner.handle(.failed(serial: 2, dead), now: 200).last == .startTune(channel: 2, serial: 3, reason: .failover, source: 1))
        let last = tuner.handle(.failed(serial: 3, dead), now: 300)
        #expect(last == [.loadFailed(channel: 2, serial: 3, failure: dead), .interstitialDismissed(channel: 2, result: .failed)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .error(dead, retryAt: 2_300)))
        let retry = tuner.handle(.tick, now: 2_300)
        #expect(retry == [.interstitialShown(channel: 2), .startTune(channel: 2, serial: 4, reason: .retry, source: 2)])
        #expect(tuner.view.card == TunerCard(channel: 2, state: .loading))
    }

    @Test func outOfRangeMemoriesAndCountsAreIgnored() {
        let tuner = Tuner(channels: [1, 2, 3], start: 1, sources: [1: 0, 2: 2, 3: -4], worked: [1: 3, 2: 5, 3: 1])
        #expect([1, 2, 3].map(tuner.sourceCount(of:)) == [1, 2, 1])
        #expect([1, 2, 3].map(tuner.source(of:)) == [0, 0, 0])
    }

    @Test func aSingleSourceChannelFailsAsBefore() {
        var (tuner, _) = startedTuner()
        let failed = tuner.handle(.failed(serial: 1, dead), now: 300)
        #expect(failed == [.loadFailed(channel: 2, serial: 1, failure: dead), .interstitialDismissed(channel: 2, result: .failed)])
    }
}
