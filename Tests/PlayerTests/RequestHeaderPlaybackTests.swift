import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real binary against a provider that wants its lineup's headers on every request:
/// each way of giving them plays, and the channel that gives none fails with its kind.
extension ZapperPlaybackTests {
    @Test func channelsThatNeedTheirLineupsHeadersPlay() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/guarded/lineup.m3u")
        try #require(lineup.status == 200)
        let zapper = try await LaunchedZapper(lineup: lineup.text, arguments: ["--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 500
            snapshot $DIR/one.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 500
            snapshot $DIR/two.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 500
            snapshot $DIR/three.png
            press KEY_CHANNELUP
            wait-event load-failed 20000
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel) == [1, 2, 3])
        for (number, name) in [(1, "one"), (2, "two"), (3, "three")] {
            #expect(try await showsChannel(zapper.directory.appendingPathComponent("\(name).png").path, number))
        }
        let failures = run.named(.loadFailed)
        #expect(failures.allSatisfy { $0.channel == 4 }, "\(failures)")
        #expect(failures.first?.failure?.name == "http-403", "\(failures)")
    }
}
