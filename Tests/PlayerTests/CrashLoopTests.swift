import Foundation
import Testing
import TestSupport
import ZapperCore

/// The crash-loop breaker through the real binary: `kill -9` at the first frame of channel 2,
/// three times (as a channel that crashes zapper would under `Restart=always`). The fourth start
/// skips channel 2 for channel 1, says why, and never keeps channel 2 warm; the other neighbour
/// is warm as ever.
extension ZapperPlaybackTests {
    @Test func aChannelThatKeepsEndingTheRunIsSkippedAndNotKeptWarm() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-crash-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let lineup = try demoLineup()
        let arguments = ["--channel", "2", "--size", "320x180", "--state-dir", state.path]
        for round in 0..<CrashLoopBreaker.exitsToSkip {
            let zapper = try await LaunchedZapper(lineup: lineup, arguments: arguments, script: "wait-event first-frame 20000\nwait 60000\n")
            #expect(await zapper.waitFor(.firstFrame, seconds: 30), "round \(round)")
            await zapper.kill()
            let saved = try ZapperState.decode(Data(contentsOf: state.appendingPathComponent("state.json")))
            #expect(saved.running && saved.tuning == "tvg:green.zapper", "round \(round): \(saved)")
        }
        // 1 is tuned; then the last channel (its warm neighbour), 1 again (warm), and 2: never warm.
        let run = try await LaunchedZapper(lineup: lineup, arguments: arguments, script: """
            wait-event first-frame 20000
            wait 3000
            press KEY_CHANNELDOWN
            wait-event first-frame 20000
            wait 3000
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 3000
            press KEY_CHANNELUP
            wait-event first-frame 20000
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let notice = try #require(run.named(.crashLoop).first, "\(run.stderr)")
        let loop: (exits: Int, start: Int, skipped: Int?, quarantined: [Int])? =
            if case let .crashLoop(exits, start, skipped, quarantined) = notice.event { (exits, start, skipped, quarantined) } else { nil }
        #expect(loop?.skipped == 2 && loop?.exits == 3 && loop?.start == 1, "\(notice)")
        #expect(loop?.quarantined == [2])
        #expect(run.stderr.contains("Channel 2 was skipped: it stopped Zapper 3 times; starting on channel 1 instead"), "\(run.stderr)")
        let tunes = run.tunes.map { ($0.channel, $0.warm) }
        let last = try #require(run.tunes.dropFirst().first?.channel)
        #expect(last > 2)
        #expect(tunes.map(\.0) == [1, last, 1, 2], "\(tunes)")
        #expect(tunes.map(\.1) == [false, true, true, false], "\(tunes)")
        // A clean exit: the next start finds no unclean one, and no delay.
        let saved = try ZapperState.decode(Data(contentsOf: state.appendingPathComponent("state.json")))
        #expect(!saved.running && saved.uncleanExits.count == 3, "\(saved)")
    }
}
