import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real zapper on a real Mosquitto broker (started here on a free loopback port),
/// playing the demo origin: the retained state and discovery, commands that tune and set
/// the volume, hostile ones refused, the last will after SIGKILL; a broker that comes up
/// after the box, a screenshot, and a reload that resumes the channel on screen.
@Suite(.timeLimit(.minutes(10)))
struct MQTTFleetTests {
    static let box = "test-box"
    let topics = MQTTTopics(prefix: "zapper", boxID: MQTTFleetTests.box)

    func configFile(port: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-mqtt-\(UUID().uuidString).toml")
        try "[mqtt]\nbroker = \"mqtt://127.0.0.1:\(port)\"\nbox-id = \"\(Self.box)\"\n".write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func demoLineup() throws -> String {
        let origin = try OriginProcess.shared.get()
        return try RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
    }

    func firstFrames(_ zapper: LaunchedZapper) -> [Int] {
        zapper.events.filter { $0.event.name == .firstFrame }.compactMap(\.channel)
    }

    /// Waits (off the pool) until zapper's event log has a first frame of `channel`.
    func waitForFirstFrame(of channel: Int, _ zapper: LaunchedZapper, seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if firstFrames(zapper).contains(channel) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func homeAssistantSeesTheBoxAndItsCommandsTuneAndSetTheVolume() async throws {
        // The demo's channels and one more nobody serves (port 9: refused at once).
        let demoCount = try Repo.catalog().channels.count, dead = demoCount + 1
        let lineup = try demoLineup() + "\n#EXTINF:-1 tvg-chno=\"\(dead)\",Dead One\nhttp://127.0.0.1:9/dead.m3u8\n"
        let broker = try await MosquittoBroker.start()
        let watch = try MQTTWatch(port: broker.port, topics: ["zapper/#", "homeassistant/#"])
        let config = try configFile(port: broker.port)
        defer { try? FileManager.default.removeItem(at: config) }
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--config", config.path, "--channel", "2", "--size", "320x180"],
                                        script: "wait-event first-frame 20000\n")
        let state = topics.state, availability = topics.availability, reply = topics.reply

        let online = await watch.first(seconds: 20) { $0.topic == availability && $0.text == "online" }
        #expect(online?.retained == false, "a live message to a subscriber that was there")
        let playing = await watch.first(seconds: 25) { $0.topic == state && $0.json?["health"] as? String == "playing" }
        #expect(playing?.json?["channel"] as? Int == 2, "\(String(describing: playing?.text))")
        #expect(playing?.json?["channel_name"] as? String != nil && playing?.json?["volume"] is Int)

        // A client that comes later (Home Assistant restarting) gets the retained documents.
        let late = try MQTTWatch(port: broker.port, topics: ["homeassistant/+/\(Self.box)/+/config", state, availability])
        let discovery = await late.first(seconds: 10) { $0.topic == "homeassistant/sensor/\(Self.box)/status/config" }
        #expect(discovery?.retained == true)
        try await Task.sleep(for: .milliseconds(500))
        let retained = late.messages.filter(\.retained)
        #expect(Set(retained.map(\.topic)).isSuperset(of: [
            "homeassistant/select/\(Self.box)/channel/config", "homeassistant/number/\(Self.box)/volume/config",
            "homeassistant/switch/\(Self.box)/mute/config", "homeassistant/button/\(Self.box)/next/config",
            "homeassistant/button/\(Self.box)/previous/config", "homeassistant/sensor/\(Self.box)/status/config", state, availability,
        ]), "\(retained.map(\.topic))")
        let select = try #require(retained.first { $0.topic.hasSuffix("/select/\(Self.box)/channel/config") }?.json)
        #expect((select["options"] as? [String])?.count == dead, "the demo's channels and the dead one")
        #expect((select["options"] as? [String])?.last == "\(dead) Dead One")
        #expect((select["device"] as? [String: Any])?["sw_version"] as? String == ZapperVersion.current)
        late.stop()

        // tune: the channel changes (the event log's first frame, then the retained state).
        var mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("tune"), payload: "3 whatever the name")
        #expect(await waitForFirstFrame(of: 3, zapper, seconds: 25), "\(firstFrames(zapper))")
        let tuned = await watch.first(after: mark, seconds: 10) {
            $0.topic == state && $0.json?["channel"] as? Int == 3 && $0.json?["health"] as? String == "playing"
        }
        #expect(tuned != nil)
        #expect(await watch.first(after: mark, seconds: 5) { $0.topic == reply && $0.json?["result"] as? String == "done" }?
            .json?["command"] as? String == "tune")

        // volume: the retained state follows.
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("volume"), payload: "35")
        let louder = await watch.first(after: mark, seconds: 10) { $0.topic == state && $0.json?["volume"] as? Int == 35 }
        #expect(louder?.json?["muted"] as? Bool == false)
        #expect(zapper.events.contains { if case .volume(level: 35, _) = $0.event { true } else { false } })

        // A channel that fails: its load-failed on the event topic, and the state says failed and why.
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("tune"), payload: "\(dead)")
        let event = topics.event
        let failedEvent = await watch.first(after: mark, seconds: 20) { $0.topic == event }?.json
        #expect(failedEvent?["event"] as? String == "load-failed" && failedEvent?["channel"] as? Int == dead, "\(String(describing: failedEvent))")
        let failedState = await watch.first(after: mark, seconds: 10) { $0.topic == state && $0.json?["health"] as? String == "failed" }
        #expect(failedState?.json?["channel"] as? Int == dead && failedState?.json?["failure"] is String)
        #expect(!watch.messages.contains { $0.topic == event && ["key", "tune", "first-frame"].contains($0.json?["event"] as? String) },
                "keys, tunes and pictures are not the event topic's")

        // Hostile commands: refused with a reason, published; the box plays on.
        for (verb, payload, reason) in [("volume", "250", "a volume must be within 0…100, not 250"),
                                        ("tune", "{\"channel\": ", "the payload is not a JSON object"),
                                        ("tune", "77", "no channel 77 in the lineup"),
                                        ("format", "now", "no command \"format\"")] {
            mark = watch.messages.count
            try await MosquittoBroker.publish(port: broker.port, topic: topics.command(verb), payload: payload)
            let answer = await watch.first(after: mark, seconds: 10) { $0.topic == reply }
            #expect(answer?.json?["result"] as? String == "refused", "\(verb) \(payload)")
            #expect((answer?.json?["reason"] as? String)?.hasPrefix(reason) == true, "\(String(describing: answer?.text))")
        }
        // Over the command's 4 KB, under the 16 KB the box takes at all (larger ones never reach it: MQTTHostileTests).
        let huge = String(repeating: "9", count: 8_000)
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("tune"), payload: huge)
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == reply }?.json?["reason"] as? String
            == "a payload of 8000 bytes is over 4096")
        #expect(zapper.descriptorsAndThreads != nil, "still running")

        // SIGKILL: the broker publishes the last will, retained.
        mark = watch.messages.count
        await zapper.kill()
        let will = await watch.first(after: mark, seconds: 10) { $0.topic == availability }
        #expect(will?.text == "offline")
        let later = try MQTTWatch(port: broker.port, topics: [availability])
        #expect(await later.first(seconds: 5) { $0.retained }?.text == "offline", "kept for whoever comes next")
    }

    @Test func aBoxWhoseBrokerComesLaterConnectsSendsAScreenshotAndReloadsOnTheSameChannel() async throws {
        let lineup = try demoLineup()
        let port = try MosquittoBroker.freePort()
        let config = try configFile(port: port)
        defer { try? FileManager.default.removeItem(at: config) }
        // As systemd starts it (Type=notify): the reload must say RELOADING=1, then READY=1 again, never STOPPING=1.
        let systemd = try SystemdNotifyTests.Listener(abstract: true)
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--config", config.path, "--channel", "2", "--size", "320x180"],
                                        script: "wait-event first-frame 20000\n", environment: ["NOTIFY_SOCKET": systemd.name])
        #expect(await zapper.waitFor(.firstFrame, seconds: 25), "plays with no broker")
        let broker = try await MosquittoBroker.start(port: port)
        let watch = try MQTTWatch(port: port, topics: ["zapper/#"])
        let state = topics.state, availability = topics.availability, reply = topics.reply
        // Reconnection backs off from 1 s, doubling: within 1 + 2 + 4 + 8 s of the broker's start.
        let first = await watch.first(seconds: 20) { $0.topic == state && $0.json?["channel"] as? Int == 2 }
        #expect(first != nil, "the box connected once the broker was up")

        // screenshot: a PNG of the screen on the screenshot topic.
        var mark = watch.messages.count
        try await MosquittoBroker.publish(port: port, topic: topics.command("screenshot"), payload: "now")
        let shot = await watch.first(after: mark, seconds: 10) { $0.topic == "zapper/\(Self.box)/screenshot" }
        #expect(shot.map { Array($0.payload.prefix(8)) } == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG")
        #expect((shot?.payload.count ?? 0) > 1000)
        #expect(await watch.first(after: mark, seconds: 5) { $0.topic == reply }?.json?["result"] as? String == "done")

        // screenshot with a URL: the PNG is PUT there (the origin keeps uploads); a PUT that fails is a refusal.
        let origin = try OriginProcess.shared.get()
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: port, topic: topics.command("screenshot"),
                                    payload: "http://127.0.0.1:\(origin.port)/control/uploads/box.png")
        #expect(await watch.first(after: mark, seconds: 15) { $0.topic == reply }?.json?["result"] as? String == "done")
        let uploaded = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/control/uploads/box.png")
        #expect(uploaded.status == 200 && Array(uploaded.body.prefix(4)) == [0x89, 0x50, 0x4e, 0x47], "a PNG was uploaded")
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: port, topic: topics.command("screenshot"),
                                    payload: "{\"url\": \"http://127.0.0.1:\(origin.port)/control/uploads\"}")
        let failedUpload = await watch.first(after: mark, seconds: 15) { $0.topic == reply }?.json
        #expect(failedUpload?["result"] as? String == "refused")
        #expect((failedUpload?["reason"] as? String)?.contains("HTTP 404") == true, "\(String(describing: failedUpload))")

        // A command published retained is carried out as it comes (the broker passes it on live), then
        // volume 50; the new run after the reload receives the retained one again as it subscribes,
        // flagged retained: refused, so the volume stays 50.
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: port, topic: topics.command("volume"), payload: "5", retain: true)
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == state && $0.json?["volume"] as? Int == 5 } != nil)
        try await MosquittoBroker.publish(port: port, topic: topics.command("volume"), payload: "50")
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == state && $0.json?["volume"] as? Int == 50 } != nil)

        // Tune 4, then reload: the loop ends, zapper starts itself anew (same PID) and resumes channel 4.
        try await MosquittoBroker.publish(port: port, topic: topics.command("tune"), payload: "4")
        #expect(await waitForFirstFrame(of: 4, zapper, seconds: 25))
        try await Task.sleep(for: .seconds(1))  // the state file is saved at most twice a second
        let pid = zapper.pid
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: port, topic: topics.command("reload"), payload: "now")
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == reply }?.json?["result"] as? String == "done")
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == availability && $0.text == "offline" } != nil,
                "a clean stop says offline itself")
        let back = await watch.first(after: mark, seconds: 30) { $0.topic == availability && $0.text == "online" }
        #expect(back != nil, "online again after the reload")
        #expect(await waitForFirstFrame(of: 4, zapper, seconds: 25), "resumed on 4, not the --channel 2 it was started with")
        #expect(firstFrames(zapper) == [4], "the event log began anew with the new run: \(firstFrames(zapper))")
        let retainedAgain = await watch.first(after: mark, seconds: 10) {
            $0.topic == reply && $0.json?["reason"] as? String == "a retained command is not carried out (publish commands without retain)"
        }
        #expect(retainedAgain?.json?["command"] as? String == "volume")
        #expect(await watch.first(after: mark, seconds: 10) { $0.topic == state && $0.json?["channel"] as? Int == 4 }?
            .json?["volume"] as? Int == 50, "the retained volume 5 was not carried out again")
        #expect(!watch.messages.dropFirst(mark).contains { $0.topic == state && $0.json?["volume"] as? Int == 5 })
        #expect(zapper.pid == pid && zapper.descriptorsAndThreads != nil)
        let said = systemd.drain().flatMap { $0.split(separator: "\n").map(String.init) }
        let reloading = try #require(said.firstIndex(of: "RELOADING=1"), "\(said)")
        #expect(said[..<reloading].contains("READY=1") && said[reloading...].contains("READY=1"), "\(said)")
        #expect(!said.contains("STOPPING=1"), "\(said)")
        await zapper.kill()
        broker.stop()
    }
}

extension MQTTFleetTests {
    /// mqtts:// with a private authority (`ca-file`): the box connects to a broker whose certificate
    /// it trusts, and never to one made out for another name (saying why).
    @Test func anMqttsBrokerIsTrustedThroughTheCAFileAndItsNameIsChecked() async throws {
        let lineup = try demoLineup()
        let certificates = try TestCertificates.make()
        defer { try? FileManager.default.removeItem(at: certificates.directory) }
        for (pair, trusted) in [(certificates.good, true), (certificates.wrongHost, false)] {
            let broker = try await MosquittoBroker.start(tls: pair)
            let watch = try MQTTWatch(port: broker.port, topics: ["zapper/#"])
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-mqtts-\(UUID().uuidString).toml")
            defer { try? FileManager.default.removeItem(at: config) }
            try """
                [mqtt]
                broker = "mqtts://127.0.0.1:\(try #require(broker.tlsPort))"
                box-id = "\(Self.box)"
                ca-file = "\(certificates.caFile)"
                """.write(to: config, atomically: true, encoding: .utf8)
            let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--config", config.path, "--size", "320x180"],
                                            script: "wait-event first-frame 20000\n")
            let state = topics.state
            let seen = await watch.first(seconds: trusted ? 20 : 6) { $0.topic == state }
            #expect((seen != nil) == trusted, "\(pair.certificate): \(String(describing: seen?.text))")
            await zapper.kill()
            let stderr = await zapper.finish().stderr
            if !trusted {
                #expect(stderr.contains("mqtt: 127.0.0.1:\(try #require(broker.tlsPort)): A TLS error occurred;"), "\(stderr)")
                #expect(stderr.contains("certificate verify failed"), "libmosquitto's words for it: \(stderr)")
            }
        }
    }
}

extension MQTTFleetTests {
    /// `username` and `password`: the box connects to a broker that takes only known users, and a
    /// wrong password is refused by the broker, said, and tried again with backoff.
    @Test func aBrokerThatWantsAPasswordGetsTheConfiguredOne() async throws {
        let lineup = try demoLineup()
        let broker = try await MosquittoBroker.start(users: ["box": "s3cret"])
        for (password, accepted) in [("s3cret", true), ("wrong", false)] {
            let watch = try MQTTWatch(port: broker.port, topics: ["zapper/#"])
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-auth-\(UUID().uuidString).toml")
            defer { try? FileManager.default.removeItem(at: config) }
            try """
                [mqtt]
                broker = "mqtt://127.0.0.1:\(try #require(broker.passwordPort))"
                box-id = "\(Self.box)"
                username = "box"
                password = "\(password)"
                """.write(to: config, atomically: true, encoding: .utf8)
            let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--config", config.path, "--size", "320x180"],
                                            script: "wait-event first-frame 20000\n")
            let state = topics.state
            // (Not the state the first run left retained.)
            let seen = await watch.first(seconds: accepted ? 20 : 6) { $0.topic == state && !$0.retained }
            #expect((seen != nil) == accepted, "password \(password)")
            await zapper.kill()
            let stderr = await zapper.finish().stderr
            if !accepted {
                #expect(stderr.contains("refused the connection: Connection Refused"), "\(stderr)")
                #expect(!stderr.contains("wrong"), "the password is never said")
            }
        }
    }
}
