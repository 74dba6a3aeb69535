import Foundation
import OriginKit
import Testing
import TestSupport

/// A playing channel whose live edge stops (the origin's `stall` fault) and
/// stays stopped: after `stallAfter` without a new picture it is tuned again
/// at once (`stalled`, a `tune` with reason retry); the re-tune plays what the
/// frozen playlist still lists and stalls again, and is then retried with
/// backoff (the error card meanwhile); once the origin moves on, it plays.
extension ZapperPlaybackTests {
    @Test func aChannelWhosePicturesStopIsTunedAgain() async throws {
        let origin = try OriginProcess()
        defer { origin.stop() }
        let channel = 2
        let lineup = try RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
        let zapper = try LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(channel)", "--size", "640x360"], script: """
            wait-event first-frame 20000
            wait-event stalled 60000
            wait-event stalled 60000
            wait-event first-frame 60000
            wait 1500
            snapshot $DIR/after.png
            quit
            """)
        #expect(await zapper.waitFor(.firstFrame, seconds: 25))
        #expect(try RawHTTPConnection.fetch(port: origin.port, "PUT", "/control/faults/\(channel)", body: "stall").status == 200)
        #expect(await zapper.waitFor(.stalled, seconds: 60), "no stalled event")
        #expect(await zapper.waitFor(.stalled, skipping: 1, seconds: 60), "no second stalled event")
        #expect(try RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/\(channel)").status == 200)
        let run = await zapper.finish()

        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let stalled = try #require(run.named(.stalled).first)
        #expect(stalled["channel"] as? Int == channel)
        #expect((stalled["seconds"] as? Int ?? 0) >= 8)
        let stalls = run.named(.stalled).compactMap { $0["t_ms"] as? Int }
        let retunes = run.named(.tune).dropFirst()
        #expect(retunes.allSatisfy { $0["reason"] as? String == "retry" }, "\(retunes)")
        let retuneTimes = retunes.compactMap { $0["t_ms"] as? Int }
        // The first stall is tuned again at once, the second after the 2 s backoff.
        #expect(stalls.count >= 2 && retuneTimes.count >= 2, "stalls \(stalls), re-tunes \(retuneTimes)")
        if stalls.count >= 2, retuneTimes.count >= 2 {
            #expect(retuneTimes[0] - stalls[0] < 500)
            #expect(retuneTimes[1] - stalls[1] >= 2_000 && retuneTimes[1] - stalls[1] < 3_000)
        }
        #expect(run.named(.firstFrame).count >= 3)
        #expect(try showsChannel(zapper.directory.appendingPathComponent("after.png").path, channel))
    }
}
