import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real binary against the origin's https listener, whose certificate a
/// CA made by the test signed (named in the configuration's `ca-file`): the
/// channel plays its picture and tone; a master that redirects from https to
/// http fails at once as refused, with no watchdog wait.
extension ZapperPlaybackTests {
    @Test func anHTTPSChannelPlaysAndADowngradeIsRefused() async throws {
        let certificates = try TestCertificates.make()
        let origin = try await OriginProcess.start(arguments: ["--tls-cert", certificates.good.certificate,
                                                   "--tls-key", certificates.good.key, "--tls-port", "0"])
        defer { origin.stop() }
        let port = try #require(origin.httpsPort)
        let channel = try #require(try Repo.catalog().channel(number: 3))
        let lineup = """
            #EXTM3U
            #EXTINF:-1 tvg-chno="1",Over TLS
            https://127.0.0.1:\(port)/ch/3/master.m3u8
            #EXTINF:-1 tvg-chno="2",Down to http
            https://127.0.0.1:\(port)/moved/insecure/4.m3u8
            """
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-tls-\(UUID().uuidString).toml")
        try "[network]\nca-file = \"\(certificates.caFile)\"\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try await runZapper(lineup: lineup, arguments: ["--config", config.path, "--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 2500
            snapshot $DIR/tls.png
            press KEY_CHANNELUP
            wait-event load-failed 5000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let path = try #require(run.snapshotPaths.first)
        #expect(try await showsChannel(path, 3))
        #expect(try strongestTone(leftSamples(run)) == Double(channel.audio[0].toneHz))
        let failed = try #require(run.named(.loadFailed).first, "\(run.stderr)")
        #expect(failed.channel == 2)
        #expect(failed.failure?.name == "refused")
        #expect(failed.failure?.detail.contains("redirects from https to http") == true, "\(failed)")
        #expect(run.named(.loadFailed).allSatisfy { $0.channel == 2 }, "\(run.stderr)")
    }

    /// A `ca-file` that is not a PEM file of certificates stops zapper at start, naming it.
    @Test func aBadCAFileIsToldAtStart() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-tls-\(UUID().uuidString).toml")
        try "[network]\nca-file = \"/nonexistent/private-ca.pem\"\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--config", config.path], script: "quit\n")
        #expect(run.status != 0)
        #expect(run.stderr.contains("ca-file /nonexistent/private-ca.pem:"), "\(run.stderr)")
    }
}
