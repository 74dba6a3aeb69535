import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// A channel with several sources, in-process on the virtual clock: a source that
    /// fails while loading hands over to the next at once under the same card, which
    /// says which source it tries; `source-failover` is logged; the source that worked
    /// is remembered (for the next tune, the warm neighbour and the kept state).
    @Suite struct FailoverBehaviourTests {
        static let dead = PlaybackFailure(.http(status: 503), "http://scripted.invalid/2.m3u8: HTTP 503")

        /// Channel 2: a source failing at once, one failing after 1 s, and a good one.
        static func channels() -> [ChannelScript] {
            FlipBehaviourTests.channels(3) { number, script in
                guard number == 2 else { return }
                var fast = script
                fast.failure = dead
                var slow = fast
                slow.failAfter = 1000
                script.backups = [slow, script]
                script.failure = dead
            }
        }

        @Test func aDeadSourceHandsOverToTheNextUnderTheCard() throws {
            let harness = try PlayerHarness(Self.channels(), start: 2)
            let failover = try #require(harness.run(until: .sourceFailover))
            #expect(failover["channel"] == .int(2) && failover["from"] == .int(1) && failover["to"] == .int(2))
            #expect(failover["reason"] == .string(Self.dead.detail) && failover["kind"] == .string("http-503"))
            harness.run(milliseconds: 300)
            #expect(harness.player.tuner.view.card?.trying?.words == "Trying source 2 of 3")
            #expect(harness.events(.interstitialShown).count == 1, "one card for all the sources")
            let first = try #require(harness.run(until: .firstFrame))
            #expect(first["channel"] == .int(2))
            #expect(harness.events(.sourceFailover).map { $0["to"] } == [.int(2), .int(3)])
            #expect(harness.events(.tune).map { $0["reason"] } == [.string("start"), .string("failover"), .string("failover")])
            #expect(harness.source.opened.filter { !$0.warm }.map(\.url) == (0..<3).map { ChannelScript.url(channel: 2, source: $0) })
            #expect(harness.events(.interstitialDismissed).map { $0["result"] } == [.string("ok")])
            // The channel did not fail: its sources did, and `source-failover` said so.
            #expect(harness.events(.loadFailed).isEmpty)
            harness.run(milliseconds: 100)
            #expect(harness.shows(FlipBehaviourTests.colours[1]))
            #expect(harness.player.tuner.view.card == nil)
        }

        @Test func theSourceThatWorkedIsRememberedForTheNextTuneAndTheState() throws {
            let harness = try PlayerHarness(Self.channels(), start: 2)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            #expect(harness.states.last?.sources == ["tvg:ch2": ChannelScript.url(channel: 2, source: 2).absoluteString])
            harness.press("KEY_CHANNELUP")
            harness.run(until: .firstFrame, after: harness.log.count)
            harness.run(milliseconds: 200)
            // Channel 2 is now a warm neighbour of 3: warmed from the source that worked.
            #expect(harness.source.opened.filter(\.warm).contains { $0.channel == 2 && $0.url == ChannelScript.url(channel: 2, source: 2) })
            let mark = harness.log.count
            harness.press("KEY_CHANNELDOWN")
            harness.run(until: .firstFrame, after: mark)
            #expect(harness.log.events.dropFirst(mark).filter { $0.name == EventName.sourceFailover.rawValue }.isEmpty)
            #expect(harness.events(.tune).last?["warm"] == .bool(true))
        }

        @Test func aRestartStartsFromTheRememberedSource() throws {
            let harness = try PlayerHarness(Self.channels(), start: 2) { options in
                options.state.sources = ["tvg:ch2": ChannelScript.url(channel: 2, source: 2).absoluteString]
            }
            harness.run(until: .firstFrame)
            #expect(harness.events(.sourceFailover).isEmpty)
            #expect(harness.source.opened.filter { !$0.warm }.map(\.url) == [ChannelScript.url(channel: 2, source: 2)])
        }

        @Test func whenEverySourceFailsTheErrorCardComes() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(3) { number, script in
                guard number == 2 else { return }
                script.failure = Self.dead
                script.backups = [script]
            }, start: 2)
            let dismissed = try #require(harness.run(until: .interstitialDismissed))
            #expect(dismissed["result"] == .string("failed"))
            #expect(harness.events(.sourceFailover).count == 1)
            // Only the last source's failure fails the channel.
            #expect(harness.events(.loadFailed).map { $0["channel"] } == [.int(2)])
            guard case .error? = harness.player.tuner.view.card?.state else {
                Issue.record("no error card: \(String(describing: harness.player.tuner.view.card))")
                return
            }
        }
    }
}
