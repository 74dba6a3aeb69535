import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Flipping channels, in-process on the virtual clock (`PlayerHarness`): the card
    /// comes at the press, stays until the new channel's first picture is on screen
    /// (or the tune fails), the old picture stays under it meanwhile, and failures
    /// get the error card and retries. Times are exact: the box's clock is the test's.
    @Suite struct FlipBehaviourTests {
        static let colours: [(red: Int, green: Int, blue: Int)] = [(200, 40, 40), (40, 200, 40), (40, 40, 200), (200, 200, 40), (200, 40, 200), (40, 200, 200)]
        static func channels(_ count: Int = 6, _ change: (Int, inout ChannelScript) -> Void = { _, _ in }) -> [ChannelScript] {
            (1...count).map { number in
                var script = ChannelScript(colour: colours[(number - 1) % colours.count], soundLevel: Int16(1000 * number))
                change(number, &script)
                return script
            }
        }

        /// "tune 3", "first-frame 3", … from `mark` on (frame traces left out).
        func timeline(_ harness: PlayerHarness, after mark: Int = 0) -> [String] {
            harness.log.events.dropFirst(mark).map { event in
                if case .int(let channel)? = event["channel"] { return "\(event.name) \(channel)" }
                return event.name
            }
        }

        @Test func nextShowsTheCardOverTheOldPictureUntilTheNewOnesFirstFrame() throws {
            let harness = try PlayerHarness(Self.channels { number, script in if number == 3 { script.firstPictureAfter = 3000 } }, start: 2)
            let first = try #require(harness.run(until: .firstFrame))
            #expect(first["zap_ms"] == .int(200) || first["zap_ms"] == .int(217), "\(first)")
            harness.run(milliseconds: 1000)
            #expect(harness.shows(Self.colours[1]))
            let mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            harness.run(milliseconds: 1500)
            #expect(harness.shows(Self.colours[1]), "the old picture stays under the card: never black")
            #expect(harness.player.tuner.view.card?.channel == 3)
            let dismissed = try #require(harness.run(until: .interstitialDismissed, after: mark))
            #expect(dismissed["result"] == .string("ok"))
            #expect(timeline(harness, after: mark).filter { !$0.hasPrefix("key") }.prefix(4)
                    == ["interstitial-shown 3", "tune 3", "first-frame 3", "interstitial-dismissed 3"], "\(timeline(harness, after: mark))")
            let zap = try #require(harness.events(.firstFrame).last?["zap_ms"])
            guard case .int(let milliseconds) = zap else { Issue.record("zap_ms \(zap)"); return }
            #expect((3000...3034).contains(milliseconds), "the first frame came \(milliseconds) ms after the press")
            harness.run(milliseconds: 100)
            #expect(harness.shows(Self.colours[2]))
            #expect(harness.player.tuner.view.card == nil)
        }

        @Test func aWarmNeighbourIsPromotedAtTheFlip() throws {
            let harness = try PlayerHarness(Self.channels(), start: 2)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 100)
            #expect(Set(harness.source.opened.filter(\.warm).map(\.channel)) == [1, 3], "\(harness.source.opened)")
            harness.press("KEY_CHANNELUP")
            harness.run(until: .firstFrame)
            #expect(harness.events(.tune).last?["warm"] == .bool(true))
            #expect(harness.source.opened.filter { !$0.warm }.map(\.channel) == [2], "channel 3 was tuned cold: \(harness.source.opened)")
        }

        /// A typed channel away from the neighbours: they stop at the press (their fetches would
        /// share the line with the tune's), and the new channel's come once it shows.
        @Test func theOldNeighboursStopAtATuneAndTheNewOnesComeAfterItShows() throws {
            let harness = try PlayerHarness(Self.channels { number, script in if number == 5 { script.firstPictureAfter = 1000 } }, start: 2)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 100)
            #expect(harness.source.warmNow == [1, 3])
            let mark = harness.log.count
            harness.press("KEY_5")
            harness.run(until: .tune, after: mark)
            harness.run(milliseconds: 100)
            #expect(harness.source.warmNow.isEmpty, "neighbours of 2 still warm during the tune: \(harness.source.warmNow)")
            harness.run(until: .firstFrame, after: mark)
            harness.run(milliseconds: 100)
            #expect(harness.source.warmNow == [4, 6])
        }

        /// A provider that allows two connections at once: the playing channel and the next one
        /// (all the scripted channels share a host); with one, no neighbour is kept warm and a
        /// flip is a cold tune that still plays.
        @Test func aConnectionLimitPerHostKeepsFewerNeighboursWarm() throws {
            let two = try PlayerHarness(Self.channels(), start: 2) { $0.config.network.connectionsPerHost = 2 }
            two.run(until: .firstFrame)
            two.run(milliseconds: 100)
            #expect(two.source.opened.filter(\.warm).map(\.channel) == [3], "\(two.source.opened)")
            let one = try PlayerHarness(Self.channels(), start: 2) { $0.config.network.connectionsPerHost = 1 }
            one.run(until: .firstFrame)
            one.run(milliseconds: 100)
            #expect(one.source.opened.filter(\.warm).isEmpty, "\(one.source.opened)")
            one.press("KEY_CHANNELUP")
            #expect(one.run(until: .firstFrame, after: one.log.count) != nil)
            #expect(one.events(.tune).last?["warm"] == .bool(false))
            one.run(milliseconds: 100)
            #expect(one.shows(Self.colours[2]))
        }

        /// Holding CH+ flips on and on, faster the longer it is held, the card following;
        /// only the channel where it is released is tuned (besides the first press's own tune).
        @Test func holdingChannelUpFlipsOnAndTunesWhereItIsReleased() throws {
            let harness = try PlayerHarness(Self.channels(8), start: 1)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            let mark = harness.log.count
            harness.player.keySink(KeyEvent(name: "KEY_CHANNELUP", kind: .press, device: "test"))
            harness.run(milliseconds: 1100)
            harness.player.keySink(KeyEvent(name: "KEY_CHANNELUP", kind: .release, device: "test"))
            harness.run(until: .interstitialDismissed, after: harness.log.count)
            let events = Array(harness.log.events.dropFirst(mark))
            let shown = events.filter { $0.name == EventName.interstitialShown.rawValue }.compactMap { event -> Int? in
                if case .int(let channel)? = event["channel"] { return channel }
                return nil
            }
            let tunes = events.filter { $0.name == EventName.tune.rawValue }
            #expect(shown.count >= 4 && shown == Array(2..<(2 + shown.count)), "cards: \(shown)")
            #expect(tunes.map { $0["channel"] } == [.int(2), .int(shown.last!)], "\(timeline(harness, after: mark))")
            let times = events.filter { $0.name == EventName.interstitialShown.rawValue }.map(\.milliseconds)
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            #expect(gaps.count >= 3 && gaps.last! < gaps.first! - 100, "steps \(gaps) ms apart")
        }

        @Test func flippingBackBeforeTheNextChannelLoadsPlaysTheOldOneAgain() throws {
            let harness = try PlayerHarness(Self.channels { number, script in if number == 3 { script.firstPictureAfter = 30_000 } }, start: 2)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            let mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            harness.run(milliseconds: 700)
            harness.press("KEY_CHANNELDOWN")
            harness.run(milliseconds: 3000)
            #expect(harness.events(.interstitialDismissed).last?["result"] == .string("superseded"))
            #expect(harness.events(.loadFailed).isEmpty, "a cancelled load is no failure")
            #expect(timeline(harness, after: mark).contains("audio-started 2"), "\(timeline(harness, after: mark))")
            #expect(harness.shows(Self.colours[1]))
            #expect(harness.sink.peak(lastMilliseconds: 500) == 1280, "channel 2's sound plays again (2000 at volume 80)")
        }

        /// A dead channel: its error card (over the last picture), a retry after 2 s that fails
        /// again; the next press still flips.
        @Test func aDeadChannelGetsTheErrorCardAndRetriesAndTheNextPressStillFlips() throws {
            let harness = try PlayerHarness(Self.channels { number, script in
                if number == 3 { script.failure = PlaybackFailure(.http(status: 404), "HTTP 404 for /ch/3/master.m3u8") }
            }, start: 2)
            harness.run(until: .firstFrame)
            let mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            let failed = try #require(harness.run(until: .loadFailed, after: mark))
            #expect(failed["kind"] == .string("http-404"))
            #expect(harness.events(.interstitialDismissed).last?["result"] == .string("failed"))
            harness.run(milliseconds: 300)
            guard case .error(_, let retryAt)? = harness.player.tuner.view.card?.state, retryAt != nil else {
                Issue.record("no error card: \(String(describing: harness.player.tuner.view.card))")
                return
            }
            #expect(harness.shows(Self.colours[1]), "over the last picture")
            let retry = try #require(harness.run(until: .tune, after: mark + 3))
            #expect(retry["reason"] == .string("retry"))
            harness.press("KEY_CHANNELUP")
            harness.run(until: .firstFrame)
            #expect(harness.events(.firstFrame).last?["channel"] == .int(4))
        }

        /// Back on channel 2 while 3 still loads, but 2 has gone down meanwhile: 2 is tuned again
        /// as a tune of its own, so its failure puts up its error card and a retry shows it.
        @Test func aChannelFlippedBackToThatFailsGetsItsErrorCardAndComesBack() throws {
            let harness = try PlayerHarness(Self.channels { number, script in
                if number == 2 { script.failure = PlaybackFailure(.unreachable, "connection refused"); script.failingTunes = 2...2 }
                if number == 3 { script.firstPictureAfter = 60_000 }
            }, start: 2)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            let mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            harness.run(milliseconds: 1500)
            harness.press("KEY_CHANNELDOWN")
            harness.run(until: .firstFrame, after: mark)
            harness.run(milliseconds: 500)
            let events = timeline(harness, after: mark).filter { !$0.hasPrefix("key") && !$0.hasPrefix("audio") }
            #expect(events.drop { $0 != "tune 2" }.prefix(6) == ["tune 2", "load-failed 2", "interstitial-shown 2", "tune 2", "first-frame 2",
                                                                "interstitial-dismissed 2"], "\(events)")
            #expect(harness.events(.tune).last?["reason"] == .string("retry"))
            #expect(harness.events(.interstitialDismissed).last?["result"] == .string("ok"))
            #expect(harness.shows(Self.colours[1]))
        }

        /// No picture 10 s after the tune: the watchdog gives up (not a moment before) with the error card.
        @Test func aChannelWithNoPictureFor10sTimesOut() throws {
            let harness = try PlayerHarness(Self.channels { number, script in if number == 5 { script.firstPictureAfter = 60_000 } }, start: 1)
            harness.run(until: .firstFrame)
            let mark = harness.log.count
            harness.press("KEY_5")
            harness.press("KEY_OK")
            let tune = try #require(harness.run(until: .tune, after: mark))
            let dismissed = try #require(harness.run(until: .interstitialDismissed, after: mark, within: 15_000))
            #expect(dismissed["result"] == .string("timeout"))
            #expect((10_000...10_017).contains(dismissed.milliseconds - tune.milliseconds), "gave up \(dismissed.milliseconds - tune.milliseconds) ms after the tune")
            #expect(harness.shows(Self.colours[0]), "over the last picture")
            harness.press("KEY_CHANNELUP")
            #expect(harness.run(until: .firstFrame)?["channel"] == .int(6))
        }
    }
}
