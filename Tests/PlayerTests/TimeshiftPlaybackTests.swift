import Foundation
import Testing
import TestSupport
import ZapperCore

/// Pause and play behind live through the real binary against the origin's HLS channel: the
/// picture stops with the key, plays on five seconds later from the picture after the one it
/// stopped on (the stream's own times, traced), `behind_ms` as long as the pause; `live` tunes
/// the channel again at its edge, without a card. The rules in detail: `TimeshiftBehaviourTests`.
extension ZapperPlaybackTests {
    @Test func aPauseOfFiveSecondsPlaysOnFiveSecondsBehindLive() async throws {
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--channel", "2", "--size", "640x360", "--trace-frames"], script: """
            wait-event first-frame 20000
            wait 2000
            press KEY_PLAYPAUSE
            wait 5000
            press KEY_PLAYPAUSE
            wait 2000
            press KEY_STOP
            wait-event first-frame 20000
            wait 1000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let keys = run.events.filter { $0.event.name == .key }
        try #require(keys.count == 3, "\(run.names)")
        let (pausedAt, playedAt) = (keys[0].milliseconds, keys[1].milliseconds)
        let states = run.events.compactMap { event -> (state: TransportLayer.State, behind: Int)? in
            if case let .timeshift(channel, state, behind, _) = event.event, channel == 2 { (state, behind) } else { nil }
        }
        try #require(states.map(\.state) == [.paused, .playing, .live], "\(states)")
        #expect(states[0].behind == 0)
        // As long as the pause was, key to key (about 5 s), within 200 ms.
        let held = playedAt - pausedAt
        #expect(abs(states[1].behind - held) <= 200 && abs(held - 5_000) <= 300, "\(states[1].behind) ms behind after \(held) ms paused")
        // No picture while paused (one may be on its way in the key's own turn); then the next picture of the stream.
        let frames = run.frames
        let before = try #require(frames.last { $0.milliseconds <= pausedAt + 50 })
        #expect(!frames.contains { $0.milliseconds > pausedAt + 50 && $0.milliseconds < playedAt }, "a picture came while paused")
        let after = try #require(frames.first { $0.milliseconds >= playedAt })
        #expect((1...80).contains(after.pts - before.pts), "played on from \(before.pts) ms at \(after.pts) ms")
        #expect(run.named(.stalled).isEmpty && run.named(.loadFailed).isEmpty, "\(run.names)")
        // Back to live: the channel tuned again, no card, its first picture.
        let tunes = run.tunes
        #expect(tunes.map(\.reason) == [.start, .live], "\(tunes)")
        #expect(run.named(.interstitialShown).count == 1)
        #expect(run.named(.firstFrame).count == 2)
    }
}
