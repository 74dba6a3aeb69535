import Foundation
import Testing
import TestSupport
import ZapperCore

/// Schemes are case-insensitive (RFC 3986 §3.1): a lineup written with `HTTP://` everywhere
/// (its guide, its streams, its logos) plays, reads its guide over HTTP and never as a local
/// path, and offers its logos on the remote page's list.
extension ZapperPlaybackTests {
    @Test func aLineupInUpperCaseSchemesPlaysAndFetchesItsGuide() async throws {
        let shouting = try demoLineup().replacingOccurrences(of: "http://", with: "HTTP://")
        #expect(shouting.contains("url-tvg=\"HTTP://") && shouting.contains("tvg-logo=\"HTTP://"))
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-schemes-\(UUID().uuidString).toml")
        try "[metrics]\nlisten = \"127.0.0.1:0\"\n\n[api]\ntoken = \"\(Self.lanToken)\"\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let zapper = try await LaunchedZapper(lineup: shouting, arguments: ["--config", config.path, "--size", "320x180"],
                                              script: "wait-event first-frame 20000\nwait-event guide-loaded 30000\nwait 60000\nquit\n")
        let port = try #require(await metricsPort(of: zapper), "\(zapper.stderrSoFar)")
        #expect(await zapper.waitFor(.guideLoaded, seconds: 40), "\(zapper.stderrSoFar)")
        let loaded = try #require(zapper.events.first { $0.event.name == .guideLoaded })
        let programmes: Int? = if case let .guideLoaded(programmes, _) = loaded.event { programmes } else { nil }
        #expect((programmes ?? 0) > 0, "\(loaded)")
        let channels = try await RawHTTPConnection.fetch(port: port, "GET", "/channels", headers: owner)
        #expect(channels.text.contains("\"logo\":\"http:\\/\\/127.0.0.1") || channels.text.contains("\"logo\":\"http://127.0.0.1"), "\(channels.text.prefix(300))")
        await zapper.kill()
        #expect(!zapper.stderrSoFar.contains("No such file"), "\(zapper.stderrSoFar)")
    }
}
