import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// An HDHomeRun as the lineup: its discover.json followed to its lineup.json, its two tuners
/// never all taken by warm neighbours, and "all tuners in use" said on the card. Each test has
/// an origin of its own: the tuners are that origin's, shared by nobody else.
extension ZapperPlaybackTests {
    func tunersInUse(_ origin: OriginProcess) async throws -> [Int] {
        let body = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/hdhomerun/status.json").body
        let tuners = try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]] ?? []
        return tuners.compactMap { ($0["VctNumber"] as? String).flatMap { Int($0) } }
    }

    @Test func anHDHomeRunsLineupPlaysWithinItsTuners() async throws {
        let origin = try await OriginProcess.start()
        let channels = try Repo.catalog().broadcastChannels.map(\.number)
        let discover = "http://127.0.0.1:\(origin.port)/hdhomerun/discover.json"
        let zapper = try await LaunchedZapper(lineup: "", arguments: ["--lineup", discover, "--channel", "\(channels[0])"], script: """
            wait-event first-frame 20000
            wait 4000
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 4000
            quit
            """)
        #expect(await zapper.waitFor(.firstFrame, seconds: 40))
        // The playing channel and one warm neighbour: both tuners, no more asked for.
        try await Task.sleep(for: .seconds(3))
        let inUse = try await tunersInUse(origin)
        #expect(inUse.count == OriginRouter.tunerCount && inUse.contains(channels[0]), "tuners: \(inUse)")
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        // GuideNumber is the channel's number; CH+ reaches the next, warm.
        #expect(run.named(.firstFrame).compactMap(\.channel) == [channels[0], channels[1]])
        #expect(run.tunes.last?.warm == true, "\(run.named(.tune))")
        #expect(run.named(.loadFailed).isEmpty, "\(run.named(.loadFailed))")
    }

    @Test func allTunersInUseIsSaidOnTheCardAndTheTuneComesWhenOneIsFree() async throws {
        let origin = try await OriginProcess.start()
        let number = try #require(try Repo.catalog().broadcastChannels.first?.number)
        // Two other boxes hold both tuners.
        let box = try await offPool { () -> HeldTuners in
            HeldTuners(try (0..<OriginRouter.tunerCount).map { _ in
                let connection = try RawHTTPConnection(port: origin.port)
                _ = try connection.request("GET", "/hdhomerun/auto/v\(number)")
                return connection
            })
        }
        let lineup = "http://127.0.0.1:\(origin.port)/hdhomerun/lineup.json"
        let zapper = try await LaunchedZapper(lineup: "", arguments: ["--lineup", lineup, "--channel", "\(number)"], script: """
            wait-event load-failed 20000
            wait-event first-frame 30000
            wait 1000
            quit
            """)
        #expect(await zapper.waitFor(.loadFailed, seconds: 40))
        box.release()
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let failed = try #require(run.named(.loadFailed).first)
        #expect(failed.failure?.name == "tuners-busy", "\(failed)")
        #expect(run.named(.firstFrame).first?.channel == number)
    }
}

/// Connections holding a tuner each until released.
final class HeldTuners: @unchecked Sendable {
    private var connections: [RawHTTPConnection]
    init(_ connections: [RawHTTPConnection]) { self.connections = connections }
    func release() { connections.removeAll() }
}
