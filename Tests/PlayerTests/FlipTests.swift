import Foundation
import Testing
import TestSupport
import ZapperCore

/// Channel flipping end to end through the real binary against the origin: the
/// pipeline itself (real decode, never a black picture, a refused connection
/// failing at once). The flip's rules in detail (held keys, slow and failing
/// channels, the watchdog) are tested in-process: `FlipBehaviourTests`.
extension ZapperPlaybackTests {
    /// Names of the events, with the channel where there is one: "tune 3".
    func timeline(_ run: Run) -> [String] {
        run.events.compactMap { event in
            let name = event.event.name
            guard name != .frame else { return nil }
            return event.channel.map { "\(name.rawValue) \($0)" } ?? name.rawValue
        }
    }

    /// The card's panel at 1280x720 (the lower third of the safe area).
    var cardPanel: Rect { OverlayLayout(width: 1280, height: 720).card().panel.insetBy(dx: 40, dy: 40) }

    func isDark(_ colour: (Int, Int, Int)) -> Bool { max(colour.0, colour.1, colour.2) < 90 }

    /// Never a black flash: every picture put on screen around five flips (warm and cold, up and
    /// down, `--trace-frames` gives each one's mean brightness) is a channel's, none black.
    @Test func flippingNeverPutsABlackPictureOnScreen() async throws {
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--channel", "2", "--size", "640x360", "--trace-frames"], script: """
            wait-event first-frame 20000
            wait 500
            press KEY_CHANNELUP
            wait-event interstitial-dismissed 15000
            wait 300
            press KEY_CHANNELUP
            wait-event interstitial-dismissed 15000
            wait 300
            press KEY_6
            wait-event interstitial-dismissed 15000
            wait 300
            press KEY_CHANNELDOWN
            wait-event interstitial-dismissed 15000
            wait 300
            press KEY_BACK
            wait-event interstitial-dismissed 15000
            wait 500
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel) == [2, 3, 4, 6, 5, 6], "\(timeline(run))")
        let lumas = run.frames.map(\.luma)
        // Not vacuous: pictures of every tune were looked at, from its first on (where a black
        // flash would be). How many in all depends on the machine's load (a starved fresh-clone
        // run showed 39 in 8.6 s; a quiet one, about 90).
        var perTune: [Int] = []
        for event in run.events {
            switch event.event.name {
            case .firstFrame: perTune.append(0)
            case .frame where !perTune.isEmpty: perTune[perTune.count - 1] += 1
            default: break
            }
        }
        try #require(perTune.count == 6 && perTune.allSatisfy { $0 > 0 }, "pictures traced per tune: \(perTune)")
        #expect(lumas.min()! > 40, "a picture with mean brightness \(lumas.min()!) was shown: \(lumas.sorted().prefix(10))")
    }

    @Test func nextShowsTheCardThenTheNextChannelThenDismissesIt() async throws {
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--channel", "2", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 1000
            press KEY_CHANNELUP
            wait-event interstitial-dismissed 15000
            wait 600
            snapshot $DIR/after.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let events = timeline(run)
        let press = try #require(events.firstIndex(of: "key"))
        let order = ["interstitial-shown 3", "tune 3", "first-frame 3", "interstitial-dismissed 3"].map { events[press...].firstIndex(of: $0) }
        #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted(), "\(events)")
        #expect(run.named(.interstitialDismissed).last?.result == .ok)
        #expect(run.tunes.last?.reason == .next)
        let path = try #require(run.snapshotPaths.first)
        #expect(try await showsChannel(path, 3))
        #expect(try await !isDark(medianColour(path, crop: cardPanel)), "the card is gone")
    }

    @Test func aDeadChannelGetsTheErrorCardAndTheNextPressStillFlips() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = """
            #EXTM3U
            #EXTINF:-1 tvg-chno="2",Green Two
            http://127.0.0.1:\(origin.port)/ch/2/master.m3u8
            #EXTINF:-1 tvg-chno="5",Nowhere
            http://127.0.0.1:9/ch/5/master.m3u8
            #EXTINF:-1 tvg-chno="6",Cyan Cinema
            http://127.0.0.1:\(origin.port)/ch/6/master.m3u8
            """
        let run = try await runZapper(lineup: lineup, arguments: ["--channel", "2", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 500
            press KEY_CHANNELUP
            wait-event interstitial-dismissed 15000
            wait 400
            snapshot $DIR/error.png
            press KEY_CHANNELUP
            wait-event first-frame 15000
            wait 600
            snapshot $DIR/after.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let events = timeline(run)
        #expect(events.contains("load-failed 5"))
        let failed = run.named(.interstitialDismissed).first { $0.channel == 5 }
        #expect(failed?.result == .failed)
        // A refused connection is a failure at once, not after seconds of quiet retries.
        let press = try #require(run.named(.key).first?.milliseconds)
        let card = try #require(failed?.milliseconds)
        #expect(card - press < 2_500, "the error card came \(card - press) ms after the press")
        let snapshots = run.snapshotPaths
        try #require(snapshots.count == 2)
        #expect(try await isDark(medianColour(snapshots[0], crop: cardPanel)), "the error card is up")
        #expect(try await showsChannel(snapshots[0], 2), "over the last picture")
        #expect(events.contains("first-frame 6"))
        #expect(try await showsChannel(snapshots[1], 6))
    }
}
