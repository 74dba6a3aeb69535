import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
@testable import ZapperMQTT

/// FleetLink on a real Mosquitto broker, the player's side played by the test: what it hands
/// the player, what it refuses by itself, and its bounded outbox.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FleetLinkTests {
    final class Player: Sendable {
        let commands = Mutex<[RemoteCommand]>([])
        /// Replies held back (the loop is busy), answered by `answerAll`.
        let held = Mutex<[@Sendable (RemoteReply) -> Void]>([])
        let reloads = Atomic<Int>(0)
        let said = Mutex<[String]>([])

        func hooks() -> FleetLink.Hooks {
            FleetLink.Hooks(send: { [self] command, reply in
                commands.withLock { $0.append(command) }
                if let reply { held.withLock { $0.append(reply) } }
            }, reload: { [self] in reloads.add(1, ordering: .relaxed) }, upload: { _, _ in },
               say: { [self] line in said.withLock { $0.append(line) } })
        }

        func answerAll(_ reply: RemoteReply) {
            for answer in held.withLock({ held in defer { held.removeAll() }; return held }) { answer(reply) }
        }
    }

    func link(_ broker: MosquittoBroker, _ player: Player) throws -> FleetLink {
        let settings = MQTTSettings(broker: MQTTBroker(host: "127.0.0.1", port: broker.port, tls: false), boxID: "unit",
                                    discoveryPrefix: nil)
        return try FleetLink(settings: settings, channels: [(1, "One")], hooks: player.hooks())
    }

    let topics = MQTTTopics(prefix: "zapper", boxID: "unit")

    @Test func commandsReachThePlayerAndAFullQueueIsRefused() async throws {
        let broker = try await MosquittoBroker.start()
        let watch = try MQTTWatch(port: broker.port, topics: ["zapper/unit/#"])
        let player = Player()
        let link = try link(broker, player)
        link.start()
        let availability = topics.availability, reply = topics.reply
        #expect(await watch.first(seconds: 10) { $0.topic == availability && $0.text == "online" } != nil)
        // The loop answers nothing for now: 16 commands wait, the 17th is refused at once.
        for level in 0..<17 {
            try await MosquittoBroker.publish(port: broker.port, topic: topics.command("volume"), payload: "\(level)")
        }
        let busy = await watch.first(seconds: 10) { $0.topic == reply }
        #expect(busy?.json?["reason"] as? String == "busy: 16 commands wait for the player already")
        #expect(busy?.json?["payload"] as? String == "16")
        #expect(player.commands.withLock { $0 } == (0..<16).map { RemoteCommand.volume($0) })
        player.answerAll(.done)
        #expect(await watch.first(seconds: 10) { $0.topic == reply && $0.json?["payload"] as? String == "15" }?
            .json?["result"] as? String == "done")
        // Room again: the next is handed over, and refused by the player with its reason.
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("tune"), payload: "9")
        let deadline = Date().addingTimeInterval(10)
        while player.held.withLock(\.isEmpty), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        player.answerAll(.refused("no channel 9 in the lineup"))
        #expect(await watch.first(seconds: 10) { $0.topic == reply && $0.json?["command"] as? String == "tune" }?
            .json?["reason"] as? String == "no channel 9 in the lineup")
        // reload is the link's own: answered, then handed to the hook.
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("reload"), payload: "now")
        #expect(await watch.first(seconds: 10) { $0.topic == reply && $0.json?["command"] as? String == "reload" } != nil)
        let reloadDeadline = Date().addingTimeInterval(5)
        while player.reloads.load(ordering: .relaxed) == 0, Date() < reloadDeadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(player.reloads.load(ordering: .relaxed) == 1)
        // A clean stop says offline.
        link.stop()
        #expect(await watch.first(seconds: 5) { $0.topic == availability && $0.text == "offline" } != nil)
    }

    /// A process with more than 1024 files open (a busy box, this suite run in parallel): the link's
    /// socket is numbered past select(2)'s limit, which libmosquitto's own loop refuses ("Invalid
    /// function arguments provided", every try). It connects, and a command round-trips.
    @Test func aLinkConnectsWithManyFilesOpen() async throws {
        let census = await DescriptorCensus.shared.hold()  // not beside a count of descriptors
        defer { census.release() }
        let broker = try await MosquittoBroker.start()
        let watch = try MQTTWatch(port: broker.port, topics: ["zapper/unit/#"])
        var held: [Int32] = []
        defer { for descriptor in held { close(descriptor) } }
        while held.last.map({ $0 < 1100 }) ?? true {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(descriptor >= 0, "open: \(errno)")
            held.append(descriptor)
        }
        let player = Player()
        let link = try link(broker, player)
        link.start()
        defer { link.stop() }
        let availability = topics.availability
        #expect(await watch.first(seconds: 10) { $0.topic == availability && $0.text == "online" } != nil, "\(player.said.withLock { $0 })")
        try await MosquittoBroker.publish(port: broker.port, topic: topics.command("volume"), payload: "7")
        let deadline = Date().addingTimeInterval(10)
        while player.commands.withLock({ $0.isEmpty }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(player.commands.withLock { $0 } == [.volume(7)])
    }

    @Test func theStateIsCoalescedAndTheOutboxBounded() async throws {
        let outbox = FleetOutbox()
        for index in 0..<(FleetOutbox.capacity + 10) {
            outbox.post(.message(topic: "t", payload: [UInt8(index & 0xff)], retain: false))
        }
        for volume in 0..<1000 { outbox.post(state: Array("\(volume)".utf8)) }
        #expect(outbox.dropped == 10)
        let taken = try #require(outbox.take())
        #expect(taken.items.count == FleetOutbox.capacity)
        #expect(taken.state == Array("999".utf8), "only the newest state is sent")
        for index in 0..<(FleetOutbox.capacity + 1) { outbox.post(.message(topic: "t", payload: [UInt8(index & 0xff)], retain: false)) }
        outbox.stop(last: .message(topic: "goodbye", payload: [], retain: true))
        #expect(!outbox.post(.reload), "nothing is taken in once stopping")
        let last = try #require(outbox.take())
        #expect(last.items.count == FleetOutbox.capacity + 1, "the goodbye goes in even when full")
        if case .message(let topic, _, _)? = last.items.last { #expect(topic == "goodbye") } else { Issue.record("no goodbye") }
        #expect(outbox.take() == nil)
    }

    @Test func errorsCarryTheLibrarysWords() {
        let error = MosquittoError("mosquitto_publish(x)", code: 4)  // MOSQ_ERR_NO_CONN
        #expect(error.description == "mosquitto_publish(x): The client is not currently connected")
        #expect(MosquittoError("m", code: 3).message == "Invalid function arguments provided")
    }
}
