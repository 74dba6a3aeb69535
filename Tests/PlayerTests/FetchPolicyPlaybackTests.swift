import Foundation
import Testing
import TestSupport

/// Where the real binary's fetches may go: a channel whose master answers after a redirect plays,
/// and with `block-private-addresses` a channel on the local network fails with that reason.
extension ZapperPlaybackTests {
    @Test func aChannelBehindARedirectPlays() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-id=\"green.zapper\",Green Two\nhttp://127.0.0.1:\(origin.port)/moved/2.m3u8\n"
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 1000
            snapshot $DIR/shot.png
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.loadFailed).isEmpty, "\(run.named(.loadFailed))")
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("shot.png").path, 2))
    }

    @Test func blockedPrivateAddressesFailTheChannelWithTheirReason() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-block-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "[network]\nblock-private-addresses = true\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--size", "320x180", "--config", config.path], script: """
            wait-event load-failed 20000
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).isEmpty)
        let error = try #require(run.named(.loadFailed).first?.failure?.detail, "\(run.stderr)")
        #expect(error.contains("127.0.0.1 is 127.0.0.1, and local addresses are blocked"), "\(error)")
    }
}
