import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real zapper on a real Mosquitto broker that others on the LAN can reach: a 64 MB message
/// never reaches its memory (MQTT v5's Maximum Packet Size), clearing a retained reload does
/// nothing, forged availability and discovery are put right, and another client with its id
/// is not fought over every second.
extension MQTTFleetTests {
    /// zapper on `broker`, its first picture on screen and its first state published; plays on
    /// (two minutes at most) until the test kills it.
    func zapperOnTheBroker(_ broker: MosquittoBroker, watch: MQTTWatch) async throws -> LaunchedZapper {
        let config = try configFile(port: broker.port)
        defer { try? FileManager.default.removeItem(at: config) }  // read at start
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "320x180"],
                                              script: "wait-event first-frame 20000\nwait 120000\nquit\n")
        let state = topics.state
        #expect(await watch.first(seconds: 25) { $0.topic == state && $0.json?["health"] as? String == "playing" } != nil,
                "\(zapper.stderrSoFar)")
        return zapper
    }

    @Test func aMessageOverTheLimitNeverReachesZappersMemory() async throws {
        let broker = try await MosquittoBroker.start()
        let reply = topics.reply, state = topics.state
        let watch = try MQTTWatch(port: broker.port, topics: [state, reply])
        let zapper = try await zapperOnTheBroker(broker, watch: watch)
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-mqtt-big-\(UUID().uuidString)")
        try Data(repeating: 0x39, count: 64 << 20).write(to: big)
        defer { try? FileManager.default.removeItem(at: big) }
        let before = try #require(zapper.peakResidentKilobytes)
        let sent = try await offPool { try MosquittoBroker.publish(port: broker.port, topic: self.topics.command("tune"), file: big) }
        #expect(sent.status == 0, "\(sent.stderr)")
        // A command after it is carried out: the big one was dropped for zapper by the broker, unread.
        let mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("volume"), payload: "35")
        let answer = await watch.first(after: mark, seconds: 10) { $0.topic == reply }
        #expect(answer?.json?["command"] as? String == "volume" && answer?.json?["result"] as? String == "done", "\(String(describing: answer?.text))")
        let after = try #require(zapper.peakResidentKilobytes)
        #expect(after - before < 16 << 10, "peak memory grew by \((after - before) >> 10) MB with a 64 MB message sent")
        await zapper.kill()
    }

    @Test func clearingARetainedReloadDoesNothingAndForgedTopicsArePutRight() async throws {
        let broker = try await MosquittoBroker.start()
        let availability = topics.availability, status = "homeassistant/sensor/\(Self.box)/status/config"
        let watch = try MQTTWatch(port: broker.port, topics: [topics.state, availability, status])
        let zapper = try await zapperOnTheBroker(broker, watch: watch)
        try await offPool { try MosquittoBroker.clearRetained(port: broker.port, topic: self.topics.command("reload")) }
        // Another client says the box is offline, and replaces its status sensor's document.
        var mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: availability, payload: "offline", retain: true)
        let back = await watch.first(after: mark + 1, seconds: 5) { $0.topic == availability && $0.text == "online" }
        #expect(back != nil, "availability was not put right: \(watch.messages.suffix(5).map(\.text))")
        mark = watch.messages.count
        try await MosquittoBroker.publish(port: broker.port, topic: status, payload: "{\"name\": \"forged\"}", retain: true)
        let restored = await watch.first(after: mark + 1, seconds: 5) { $0.topic == status && $0.text.contains("\"unique_id\"") }
        #expect(restored != nil, "the discovery document was not put right")
        // Whoever comes next reads the box's own.
        let late = try MQTTWatch(port: broker.port, topics: [availability])
        #expect(await late.first(seconds: 5) { $0.retained }?.text == "online")
        await zapper.kill()
        #expect(!zapper.stderrSoFar.contains("reload asked for"), "\(zapper.stderrSoFar)")
        #expect(zapper.stderrSoFar.contains("an empty message on command/reload does nothing"), "\(zapper.stderrSoFar)")
        #expect(zapper.stderrSoFar.contains("another client wrote"), "\(zapper.stderrSoFar)")
    }

    /// A client that connects with zapper's own client id (mosquitto_sub, which reconnects itself)
    /// takes its session over; zapper takes it back once at most, then waits a minute instead of
    /// kicking and being kicked every second, and says so once.
    @Test func anotherClientWithItsIDIsNotFoughtOver() async throws {
        let broker = try await MosquittoBroker.start()
        let availability = topics.availability
        let watch = try MQTTWatch(port: broker.port, topics: [topics.state, availability])
        let zapper = try await zapperOnTheBroker(broker, watch: watch)
        let mark = watch.messages.count
        let impostor = try MQTTWatch(port: broker.port, topics: ["nobody/listens"], clientID: "zapper-\(Self.box)")
        try await Task.sleep(for: .seconds(8))
        let online = watch.messages.dropFirst(mark).filter { $0.topic == availability && $0.text == "online" }
        #expect(online.count <= 1, "zapper took its id back \(online.count) times in 8 s")
        impostor.stop()
        await zapper.kill()
        let said = zapper.stderrSoFar.components(separatedBy: "\n").filter { $0.contains("takes the session over") }
        #expect(said.count == 1 && said[0].contains("trying again in 60 s"), "\(zapper.stderrSoFar)")
    }
}
