import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The real binary on the origin's `/shapes/lineup.m3u`: a master whose variant's
/// first copy is on a host that is down plays from its backup with no failure
/// shown, and two lineup entries of one channel, the first on that host, play as
/// one channel from its second source, saying so in `source-failover`.
extension ZapperPlaybackTests {
    @Test func redundantVariantsAndMergedSourcesPlay() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/lineup.m3u")
        try #require(lineup.status == 200)
        let zapper = try await LaunchedZapper(lineup: lineup.text, arguments: ["--size", "320x180", "--channel", "\(OriginRouter.redundantNumber)"],
                                        script: """
            wait-event first-frame 20000
            wait 1000
            snapshot $DIR/redundant.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 1000
            snapshot $DIR/merged.png
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel).prefix(2) == [OriginRouter.redundantNumber, OriginRouter.mergedNumber],
                "\(run.stderr)")
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("redundant.png").path, OriginRouter.redundantChannel))
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("merged.png").path, OriginRouter.mergedChannel))
        // The dead host behind the redundant variant is not the viewer's business.
        #expect(!run.named(.loadFailed).contains { $0.channel == OriginRouter.redundantNumber }, "\(run.named(.loadFailed))")
        let failovers = run.named(.sourceFailover)
        #expect(failovers.count == 1, "\(failovers)")
        #expect(failovers.first?.channel == OriginRouter.mergedNumber)
        let sources: (from: Int, to: Int)? = if case let .sourceFailover(_, from, to, _)? = failovers.first?.event { (from, to) } else { nil }
        #expect(sources?.from == 1 && sources?.to == 2)
        #expect(failovers.first?.failure?.detail.contains("503") == true, "\(failovers)")
    }
}
