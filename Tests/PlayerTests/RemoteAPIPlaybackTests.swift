import Foundation
import Testing
import TestSupport
import ZapperCore

/// The HTTP API through the real binary: on the metrics' address, only with the bearer token;
/// `GET /status`, `POST /command/tune` tuning through the card, a refused command's reason, and
/// `GET /screenshot.png`.
extension ZapperPlaybackTests {
    /// zapper on the demo lineup serving the API with `token` on a free loopback port, its first
    /// picture on screen; it plays on (two minutes at most) until the test kills it.
    /// `api`: more of its `[api]` section.
    func zapperServingTheAPI(token: String, api: String = "") async throws -> (zapper: LaunchedZapper, port: Int) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-api-\(UUID().uuidString).toml")
        try "[metrics]\nlisten = \"127.0.0.1:0\"\n\n[api]\ntoken = \"\(token)\"\n\(api)".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }  // read at start
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "320x180"],
                                        script: "wait-event first-frame 20000\nwait 120000\nquit\n")
        let port = try #require(await metricsPort(of: zapper), "\(zapper.stderrSoFar)")
        #expect(await zapper.waitFor(.firstFrame, skipping: 0, seconds: 40), "\(zapper.stderrSoFar)")
        return (zapper, port)
    }

    @Test func theHTTPAPITunesReportsAndScreenshotsWithItsToken() async throws {
        let token = "lobby-screen-token-7f3a9c"
        let (zapper, port) = try await zapperServingTheAPI(token: token)
        let bearer = ["Authorization": "Bearer \(token)"]
        #expect(try await RawHTTPConnection.fetch(port: port, "GET", "/status").status == 401, "no token, no API")
        #expect(try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: ["Authorization": "Bearer wrong"]).status == 401)
        let status = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: bearer)
        #expect(status.status == 200 && status.text.contains("\"channel\":1"), "\(status.text)")
        let tune = try await RawHTTPConnection.fetch(port: port, "POST", "/command/tune", body: "3", headers: bearer)
        #expect(tune.status == 200 && tune.text.contains("\"result\":\"done\""), "\(tune.text)")
        #expect(await zapper.waitFor(.firstFrame, skipping: 1, seconds: 40))
        let missing = try await RawHTTPConnection.fetch(port: port, "POST", "/command/tune", body: "77", headers: bearer)
        #expect(missing.status == 409 && missing.text.contains("no channel 77 in the lineup"), "\(missing.text)")
        let bad = try await RawHTTPConnection.fetch(port: port, "POST", "/command/volume", body: "loud", headers: bearer)
        #expect(bad.status == 400 && bad.text.contains("refused"), "\(bad.text)")
        let shot = try await RawHTTPConnection.fetch(port: port, "GET", "/screenshot.png", headers: bearer)
        #expect(shot.status == 200 && Array(shot.body.prefix(4)) == [0x89, 0x50, 0x4e, 0x47], "a PNG")
        let after = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: bearer)
        #expect(after.text.contains("\"channel\":3"), "\(after.text)")
        await zapper.kill()
        #expect(zapper.stderrSoFar.contains("api: GET /status from 127.0.0.1 refused: no or a wrong bearer token"))
    }

    /// The panel's Phone tab hands the token over in a QR code: zbarimg reads the snapshot's code
    /// as the page's link on the box's own address, and its token opens the API. (The API is
    /// asked over loopback, which a wildcard listener takes too: no traffic to another address.)
    @Test func thePanelsPhoneTabShowsACodeWhoseLinkOpensTheAPI() async throws {
        let token = "hotel-room+412-b7c9e"
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-phone-\(UUID().uuidString).toml")
        try "[metrics]\nlisten = \"0.0.0.0:0\"\n\n[api]\ntoken = \"\(token)\"\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let rights = String(repeating: "press KEY_RIGHT\nwait 150\n", count: PanelRow.standard.count)
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "1280x720"],
                                              script: "wait-event first-frame 20000\npress KEY_UP\nwait-event panel-opened 5000\n"
                                                  + rights + "wait 1000\nsnapshot $DIR/phone.png\nwait 60000\nquit\n")
        let port = try #require(await metricsPort(of: zapper), "\(zapper.stderrSoFar)")
        #expect(await zapper.waitFor(.snapshot, seconds: 60), "\(zapper.stderrSoFar)")
        let read = try QRReader.scan(zapper.directory.appendingPathComponent("phone.png"))
        // This machine's own addresses decide what the tab can offer a phone.
        let own = Host.current().addresses.filter { !$0.contains(":") && !$0.hasPrefix("127.") && !$0.hasPrefix("169.254.") }
        guard !own.isEmpty else {
            #expect(read.status == 4, "no network address: no code (\(read.text))")
            await zapper.kill()
            return
        }
        let host = read.text.dropFirst("http://".count).split(separator: ":").first.map(String.init) ?? ""
        #expect(own.contains(host) && read.text == "http://\(host):\(port)/remote#token=hotel-room%2B412-b7c9e",
                "zbarimg: \(read.status) \(read.text); this machine: \(own)")
        let fragment = try #require(read.text.split(separator: "#token=").last.flatMap { String($0).removingPercentEncoding })
        let status = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: ["Authorization": "Bearer \(fragment)"])
        #expect(status.status == 200, "\(status.text)")
        await zapper.kill()
    }
}
