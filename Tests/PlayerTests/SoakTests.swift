import Foundation
import Testing
import TestSupport
import ZapperEngine

/// The soak, short (`zapper-bench soak` is the long one): 300 changes — adjacent, typed numbers and
/// KEY_LAST in turn, 100 ms apart — while channels 3 and 5 fail and recover on an origin of the test's
/// own. zapper survives it, and once the last channel has settled its open files and threads are back
/// where they were after its first picture: nothing a flip opens outlives it.
extension ZapperPlaybackTests {
    @Test func threeHundredFlipsLeaveNoFilesOrThreadsBehind() async throws {
        let origin = try await OriginProcess.start(arguments: [])
        defer { origin.stop() }
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
        let presses = (0..<300).map { index -> String in
            switch index % 4 {
            case 0: "press KEY_CHANNELUP"
            case 1: "press KEY_CHANNELDOWN"
            case 2: "press KEY_\(1 + index % 7)\npress KEY_OK"
            default: "press KEY_LAST"
            }
        }
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "1", "--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 4000
            snapshot $DIR/start.png
            wait 2000
            \(presses.joined(separator: "\nwait 100\n"))
            press KEY_1
            press KEY_OK
            wait-event first-frame 20000
            wait 4000
            snapshot $DIR/end.png
            wait 2000
            quit
            """)
        #expect(await zapper.waitFor(.snapshot, seconds: 40))
        let baseline = try #require(zapper.descriptorsAndThreads)
        // Read the moment the end snapshot is logged (zapper quits two seconds later), watched from
        // now on: the fault loop's sleeps can end late on a loaded machine, after zapper is gone.
        let pid = zapper.pid
        async let end = zapper.reading(after: .snapshot, skipping: 1, seconds: 150) { LaunchedZapper.descriptorsAndThreads(pid: pid) }
        // Faults on and off meanwhile: a segment that 404s on 3, a slow origin on 5.
        for (round, (channel, fault)) in [(3, "segment-404"), (5, "delay=1500"), (3, "playlist-5xx")].enumerated() {
            try await Task.sleep(for: .seconds(round == 0 ? 5 : 6))
            _ = try await RawHTTPConnection.fetch(port: origin.port, "PUT", "/control/faults/\(channel)", body: fault)
            try await Task.sleep(for: .seconds(4))
            _ = try await RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/\(channel)")
        }
        let after = try #require(await end ?? nil)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(run.named(.tune).count >= 150, "\(run.named(.tune).count) tunes")
        print("soak: \(run.named(.tune).count) tunes; fds \(baseline.descriptors) → \(after.descriptors), threads \(baseline.threads) → \(after.threads)")
        // The same channel structure at both ends (one playing, two warm): the same files and threads,
        // give or take the HTTP pool's idle connections (at most 4 to the origin) and an idle Dispatch worker or two,
        // and the playing decoder's frame threads (one per processor and one more) when one thread was found too
        // slow meanwhile (a loaded machine; the log says so): decoders start on one thread.
        let threaded = run.stderr.contains("frame threads take over") ? DecoderThreads.shared.frameThreads : 0
        #expect(after.descriptors <= baseline.descriptors + 4, "fds \(baseline.descriptors) → \(after.descriptors)")
        #expect(after.threads <= baseline.threads + 2 + threaded, "threads \(baseline.threads) → \(after.threads); \(threaded) frame threads")
    }
}
