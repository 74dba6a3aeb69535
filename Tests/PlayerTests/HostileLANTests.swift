import Foundation
import Testing
import TestSupport
import ZapperCore

/// The API on a hotel's network, attacked through the real binary: strangers (other loopback
/// addresses stand in for other hosts) cannot lock the owner out or use up the owner's
/// allowance, a flood of idle connections and a slowloris leave the owner, the state and new
/// tunes working, a rebinding page's `Host` reads nothing, and no answer may be framed.
extension ZapperPlaybackTests {
    static let lanToken = "front-desk-token-58c1e7"
    var owner: [String: String] { ["Authorization": "Bearer \(Self.lanToken)"] }

    @Test func aStrangersWrongTokensAndFloodsLockOutOnlyTheStranger() async throws {
        let (zapper, port) = try await zapperServingTheAPI(token: Self.lanToken)
        for guess in 0..<6 {
            _ = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: ["Authorization": "Bearer guess-\(guess)"], from: "127.0.0.66")
        }
        let stranger = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: owner, from: "127.0.0.66")
        #expect(stranger.status == 429, "the guesser is locked out, even with the right token: \(stranger.status ?? 0)")
        // A browser's <img src=…/status> on another guest's page, 500 times over.
        let flood = try await offPool {
            (0..<500).map { _ in (try? RawHTTPConnection.fetch(port: port, "GET", "/status", from: "127.0.0.77"))?.status ?? 0 }
        }
        #expect(!flood.contains(200) && flood.contains(429), "\(Set(flood))")
        let status = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: owner)
        #expect(status.status == 200, "the owner is not locked out: \(status.status ?? 0) \(status.text)")
        await zapper.kill()
        let said = zapper.stderrSoFar.components(separatedBy: "\n").filter { $0.contains("api: GET /status from 127.0.0.77 refused") }
        #expect(said.count == 1, "a flood of 401s is said once a minute: \(said.count)")
    }

    /// 1,100 idle connections with zapper at systemd's default of 1,024 descriptors, then 40
    /// slowloris ones: the owner's `/status` answers within 2 s, a tune plays, the state is saved,
    /// and the slowloris connections are closed within the 10 s a request has to arrive.
    @Test func aFloodOfConnectionsLeavesTheOwnerTheStateAndTunes() async throws {
        // A thousand connections from this process: not beside a count of its descriptors.
        let census = await DescriptorCensus.shared.hold()
        defer { census.release() }
        let (zapper, port) = try await zapperServingTheAPI(token: Self.lanToken)
        let limited = try await Tool.run("prlimit", ["--pid", "\(zapper.pid)", "--nofile=1024:1024"])
        try #require(limited.status == 0, "prlimit: \(limited.stderr)")
        let idle = try await offPool {
            try (0..<1100).map { index in try RawHTTPConnection(port: port, from: "127.0.1.\(index % 200 + 1)") }
        }
        let open = try #require(zapper.descriptorsAndThreads?.descriptors)
        #expect(open < 400, "zapper holds \(open) descriptors with 1,100 connections knocking")
        let asked = Date()
        let status = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: owner)
        #expect(status.status == 200 && Date().timeIntervalSince(asked) < 2, "\(status.status ?? 0) after \(Date().timeIntervalSince(asked)) s")
        let tune = try await RawHTTPConnection.fetch(port: port, "POST", "/command/tune", body: "3", headers: owner)
        #expect(tune.status == 200, "\(tune.text)")
        #expect(await zapper.waitFor(.firstFrame, skipping: 1, seconds: 40), "\(zapper.stderrSoFar)")
        // Slowloris: a request a byte every second never arrives whole.
        let slow = try await offPool { try (0..<40).map { _ in try RawHTTPConnection(port: port, from: "127.0.2.1") } }
        let started = Date()
        let closedAfter = try await offPool { () -> Double? in
            let request = Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".utf8)
            var sent = 0
            while Date().timeIntervalSince(started) < 20 {
                for connection in slow { connection.sendRaw([request[min(sent, request.count - 1)]]) }
                sent += 1
                if slow.allSatisfy(\.peerClosed) { return Date().timeIntervalSince(started) }
                Thread.sleep(forTimeInterval: 1)
            }
            return nil
        }
        #expect(closedAfter.map { $0 < 13 } == true, "slowloris connections closed after \(closedAfter.map { "\($0) s" } ?? "more than 20 s")")
        withExtendedLifetime(idle) {}
        let after = try await RawHTTPConnection.fetch(port: port, "GET", "/status", headers: owner)
        #expect(after.status == 200 && after.text.contains("\"channel\":3"), "\(after.text)")
        await zapper.kill()
        #expect(!zapper.stderrSoFar.contains("Too many open files"), "\(zapper.stderrSoFar)")
        let saved = try Data(contentsOf: zapper.directory.appendingPathComponent("state/state.json"))
        let state = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(state["lastChannel"] as? Int == 3, "the state was saved: \(state)")
    }

    /// A page on a name the attacker controls, pointed at the box (DNS rebinding), reads nothing:
    /// 421 for any `Host` but an address, `localhost` and `[api] hostnames`. No answer may be framed;
    /// the remote page names its own script and style by their hashes.
    @Test func aRebindingPagesHostIsRefusedAndNoAnswerMayBeFramed() async throws {
        let (zapper, port) = try await zapperServingTheAPI(token: Self.lanToken, api: "hostnames = [\"tv-412.hotel.lan\"]\n")
        for path in ["/status", "/metrics", "/remote"] {
            let rebound = try await RawHTTPConnection.fetch(port: port, "GET", path, headers: owner.merging(["Host": "attacker.example:\(port)"]) { $1 })
            #expect(rebound.status == 421 && !rebound.text.contains("zapper_"), "\(path): \(rebound.status ?? 0)")
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "TV-412.hotel.lan:\(port)"] {
                let answer = try await RawHTTPConnection.fetch(port: port, "GET", path, headers: owner.merging(["Host": host]) { $1 })
                #expect(answer.status == 200, "\(path) as \(host): \(answer.status ?? 0)")
                #expect(answer.headers["x-frame-options"] == "DENY")
                #expect(answer.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true, "\(answer.headers)")
            }
        }
        let page = try await RawHTTPConnection.fetch(port: port, "GET", "/remote")
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'sha256-") && policy.contains("style-src 'sha256-"), "\(policy)")
        #expect(!policy.contains("unsafe-inline"), "\(policy)")
        await zapper.kill()
    }
}

/// A configuration with 10,000 `[[schedule]]` entries plays with the first 64 and says so.
extension ZapperPlaybackTests {
    @Test func aConfigurationWithTenThousandScheduleEntriesPlays() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-schedule-\(UUID().uuidString).toml")
        try String(repeating: "[[schedule]]\nfrom = \"03:00\"\nto = \"03:01\"\nvolume = 30\n\n", count: 10_000)
            .write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "320x180"],
                                      script: "wait-event first-frame 20000\nquit\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).count == 1)
        #expect(run.stderr.contains("schedule: 10000 entries, more than 64; the first 64 are kept, the rest are left out"), "\(run.stderr)")
    }
}

/// A 100 MB `state.json` (a million and a half sources, valid JSON) is set aside unread: the box
/// starts at once, and SIGTERM then ends it within 2 s with the state saved.
extension ZapperPlaybackTests {
    @Test func aHundredMegabyteStateNeitherSlowsTheStartNorTheStop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-bigstate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "{\"lastChannel\": 2, \"sources\": {"
        text += (0..<1_500_000).map { "\"https://p.example/live/\($0).m3u8\": \"https://b.example/\($0)\"" }.joined(separator: ",")
        text += "}}"
        try Data(text.utf8).write(to: directory.appendingPathComponent("state.json"))
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--state-dir", directory.path, "--size", "320x180"],
                                              script: "wait-event first-frame 20000\nwait 60000\nquit\n")
        #expect(await zapper.waitFor(.firstFrame, seconds: 15), "\(zapper.stderrSoFar)")
        let asked = Date()
        Foundation.kill(zapper.pid, SIGTERM)
        let run = await zapper.finish()
        #expect(Date().timeIntervalSince(asked) < 2, "SIGTERM took \(Date().timeIntervalSince(asked)) s")
        #expect(run.stderr.contains("more than the 4 MB a state may be"), "\(run.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("state.json.bad-") }
        #expect(aside.count == 1, "kept aside for a person to look at")
        let saved = try Data(contentsOf: directory.appendingPathComponent("state.json"))
        #expect(saved.count < 64 << 10)
    }
}
