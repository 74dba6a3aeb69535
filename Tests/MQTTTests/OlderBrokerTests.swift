import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperMQTT

/// FleetLink on a real broker that speaks MQTT 3.1.1 only: zapper asks for v5 (to announce its
/// Maximum Packet Size), is told "unacceptable protocol version", says once that large messages
/// cannot be refused before they arrive, and goes on in 3.1.1: online, commands, replies.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct OlderBrokerTests {
    @Test func aBrokerOfMQTT311IsSpokenTo311AndTheLimitIsSaidOnce() async throws {
        let broker = try await OlderBroker.start()
        let topics = MQTTTopics(prefix: "zapper", boxID: "older")
        let watch = try MQTTWatch(port: broker.port, topics: ["zapper/older/#"])
        let player = FleetLinkTests.Player()
        let settings = MQTTSettings(broker: MQTTBroker(host: "127.0.0.1", port: broker.port, tls: false), boxID: "older",
                                    discoveryPrefix: nil)
        let link = try FleetLink(settings: settings, channels: [(1, "One")], hooks: player.hooks())
        link.start()
        defer { link.stop() }
        let availability = topics.availability
        #expect(await watch.first(seconds: 20) { $0.topic == availability && $0.text == "online" } != nil, "online, in 3.1.1")
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("volume"), payload: "30")
        let deadline = Date().addingTimeInterval(10)
        while player.commands.withLock(\.isEmpty), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(player.commands.withLock { $0 } == [.volume(30)], "a command comes through")
        player.answerAll(.done)
        let reply = topics.reply
        #expect(await watch.first(seconds: 10) { $0.topic == reply }?.json?["result"] as? String == "done")
        let said = player.said.withLock { $0 }.filter { $0.contains("3.1.1") }
        #expect(said.count == 1 && said[0].contains("speaks MQTT 3.1.1 only: a message over 16 KB cannot be refused before it arrives"),
                "said once: \(player.said.withLock { $0 })")
    }
}
