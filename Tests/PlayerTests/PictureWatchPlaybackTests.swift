import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The picture watch through the real binary: the origin's `freeze` fault keeps pictures coming
/// that never change; 10 s later zapper says so (`frozen`) and tunes the channel again, and once
/// the fault is cleared the channel plays on; its metrics count it. Its own origin, so no other
/// test sees the fault.
extension ZapperPlaybackTests {
    @Test func aFrozenPictureIsSeenAndTheChannelTunedAgain() async throws {
        let origin = try await OriginProcess.start()
        defer { origin.stop() }
        let channel = 3
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
        let config = try metricsConfig()
        defer { try? FileManager.default.removeItem(at: config) }
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(channel)", "--size", "640x360", "--config", config.path],
                                        script: """
            wait-event first-frame 20000
            wait-event frozen 60000
            wait-event first-frame 30000
            wait 12000
            quit
            """)
        let port = try #require(await metricsPort(of: zapper))
        async let faulted = zapper.fault("freeze", on: channel, of: origin, after: .firstFrame, clearingAfter: 0.5,
                                         failing: "frozen-picture")
        // While it runs: the metrics count the frozen picture and the retry.
        var counted = false
        let deadline = Date().addingTimeInterval(60)
        while !counted, Date() < deadline {
            let text = await (try? RawHTTPConnection.fetch(port: port, "GET", "/metrics").text) ?? ""
            counted = text.contains(#"zapper_picture_faults_total{kind="frozen"} 1"#) && text.contains(#"zapper_tunes_total{reason="retry"} 1"#)
                && text.contains(#"zapper_load_failures_total{reason="frozen-picture"} 1"#)
            if !counted { try await Task.sleep(for: .milliseconds(250)) }
        }
        let run = try await faulted
        #expect(counted, "the metrics never counted the frozen picture")

        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let names = run.names
        let frozen = try #require(run.named(.frozen).first, "no frozen: \(names)")
        #expect(frozen.event == .frozen(channel: channel, seconds: 10))
        #expect(run.named(.stalled).isEmpty, "the pictures kept coming: \(names)")
        // On a busy machine a picture 2 s late may come first (`no-picture`, recovered): the
        // frozen picture is the failure that tunes the channel again.
        #expect(run.named(.loadFailed).contains { $0.failure?.name == "frozen-picture" }, "\(run.named(.loadFailed))")
        let tunes = run.tunes
        #expect(tunes.map(\.reason) == [.start, .retry], "\(tunes)")
        let frozenAt = frozen.milliseconds
        let retuneAt = try #require(tunes.last?.milliseconds)
        #expect(retuneAt >= frozenAt && retuneAt - frozenAt < 200, "tuned again \(retuneAt - frozenAt) ms after")
        #expect(run.named(.firstFrame).count == 2)
        #expect(run.named(.frozen).count == 1, "the cleared channel moves on: \(names)")
        #expect(run.stderr.contains("channel \(channel): the picture has not changed for 10 s; tuning it again"), "\(run.stderr)")
    }
}
