import Foundation
import OriginKit
import Synchronization
import Testing
import TestSupport
import ZapperCore

/// A box whose lineup server is down at boot plays the copy of its last fetch, says it is
/// offline (the `offline` event), fetches the lineup again by itself, and says when it is back.
extension ZapperPlaybackTests {
    /// A lineup server that answers 503 while `down` is set.
    private final class LineupServer: Sendable {
        final class Switch: Sendable {
            let down = Mutex(false)
        }
        let state = Switch()
        let server: OriginHTTPServer

        init(text: String) async throws {
            let state = self.state
            let body = Data(text.utf8)
            server = try await OriginHTTPServer.start(port: 0, responder: { _ in
                { request in
                    guard request.path == "/lineup.m3u", !state.down.withLock({ $0 }) else {
                        return OriginReply(status: 503, body: Data("down\n".utf8))
                    }
                    return OriginReply(status: 200, contentType: "audio/x-mpegurl", body: body)
                }
            })
        }

        func goes(down: Bool) { state.down.withLock { $0 = down } }

        var url: String { "http://127.0.0.1:\(server.port)/lineup.m3u" }
    }

    @Test func aBoxStartingOfflinePlaysItsCopiesAndComesBackByItself() async throws {
        let server = try await LineupServer(text: try demoLineup())
        defer { Task { await server.server.shutdown() } }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["--lineup", server.url, "--state-dir", state.path, "--size", "960x540"]
        let online = state.appendingPathComponent("online.png").path
        let first = try await runZapper(lineup: "", arguments: arguments,
                                        script: "wait-event first-frame 30000\nwait 400\nsnapshot \(online)\nquit\n")
        #expect(first.status == 0 && !first.named(.firstFrame).isEmpty, "\(first.stderr)")
        #expect(first.named(.offline).isEmpty, "online, yet: \(first.named(.offline))")
        // The badge's amber dot, where the layout puts it at this size.
        let dot = OverlayLayout(width: 960, height: 540).offlineDot().insetBy(dx: 2, dy: 2)
        func amber(_ path: String) async throws -> Bool {
            let (red, green, blue) = try await medianColour(path, crop: dot)
            return red > 200 && (130...230).contains(green) && blue < 110
        }
        #expect(try await !amber(online))

        // The next boot: the lineup server is down, the copy plays and zapper says it is offline.
        server.goes(down: true)
        let second = try await LaunchedZapper(lineup: "", arguments: arguments,
                                        script: "wait-event offline 30000\nwait 400\nsnapshot $DIR/offline.png\nwait-event offline 30000\nquit\n",
                                        environment: ["ZAPPER_LINEUP_RETRY_SECONDS": "1"])
        #expect(await second.waitFor(.offline, seconds: 30), "never said offline: \(second.stderrSoFar)")
        #expect(await second.waitFor(.firstFrame, seconds: 30), "the copy did not play: \(second.stderrSoFar)")
        // The badge is up (the snapshot is taken before the server comes back: the script's next wait follows it).
        #expect(await second.waitFor(.snapshot, seconds: 30), "no snapshot: \(second.stderrSoFar)")
        #expect(try await amber(second.directory.appendingPathComponent("offline.png").path), "no offline badge on screen")
        // The server is back: fetched again within a second or so, and the offline state ends.
        server.goes(down: false)
        let run = await second.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let offline = run.named(.offline)
        #expect(offline.count == 2, "\(offline)")
        let copies: [String]? = if case let .offline(true, copies)? = offline.first?.event { copies } else { nil }
        #expect(copies?.contains("lineup") == true, "\(offline)")
        #expect(offline.last?.event == .offline(on: false, copies: []), "\(offline)")
        #expect(run.stderr.contains("playing the copy fetched before"), "\(run.stderr)")
        #expect(run.stderr.contains("fetched again; the same as the copy playing"), "\(run.stderr)")
    }
}
