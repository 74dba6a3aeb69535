import Foundation
import Testing
@testable import ZapperCore

/// What a box publishes: the state JSON, the replies, the events, and Home Assistant's
/// discovery documents (valid JSON with the keys Home Assistant needs).
@Suite struct FleetPayloadsTests {
    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theStateCarriesChannelProgrammeSoundAndHealth() throws {
        let playing = try object(FleetPayloads.state(PlayerStatus(channel: 5, channelName: "Five \"HD\"", programme: "News",
                                                                  volume: 40, muted: false, health: .playing)))
        #expect(playing["channel"] as? Int == 5 && playing["channel_name"] as? String == "Five \"HD\"")
        #expect(playing["select"] as? String == "5 Five \"HD\"")
        #expect(playing["programme"] as? String == "News")
        #expect(playing["volume"] as? Int == 40 && playing["muted"] as? Bool == false)
        #expect(playing["health"] as? String == "playing" && playing["failure"] == nil)
        let failed = try object(FleetPayloads.state(PlayerStatus(channel: 2, channelName: "Two", programme: nil,
                                                                 volume: 0, muted: true, health: .failed("http-404"))))
        #expect(failed["programme"] is NSNull)
        #expect(failed["health"] as? String == "failed" && failed["failure"] as? String == "http-404")
        #expect(failed["muted"] as? Bool == true)
    }

    @Test func repliesEchoTheCommandSafely() throws {
        let done = try object(FleetPayloads.reply(verb: "tune", payload: Array("5".utf8), refusal: nil))
        #expect(done["command"] as? String == "tune" && done["payload"] as? String == "5" && done["result"] as? String == "done")
        #expect(done["reason"] == nil)
        let hostile = [UInt8](repeating: 0xff, count: 5000) + Array("\u{1b}[2J".utf8)
        let refused = try object(FleetPayloads.reply(verb: "volume", payload: hostile, refusal: "the payload is not UTF-8 text"))
        #expect(refused["result"] as? String == "refused" && refused["reason"] as? String == "the payload is not UTF-8 text")
        #expect((refused["payload"] as? String)?.count == 65, "64 characters and …")
    }

    @Test func onlyTheEventsAFleetWatchesArePublished() throws {
        #expect(FleetPayloads.isWorthPublishing(.loadFailed) && FleetPayloads.isWorthPublishing(.stalled))
        #expect(FleetPayloads.isWorthPublishing(.soundLost) && FleetPayloads.isWorthPublishing(.soundBack))
        #expect(FleetPayloads.isWorthPublishing(.crashLoop))
        #expect(!FleetPayloads.isWorthPublishing(.key) && !FleetPayloads.isWorthPublishing(.frame))
        #expect(!FleetPayloads.isWorthPublishing(.tune) && !FleetPayloads.isWorthPublishing(.subtitle))
        let event = Event(milliseconds: 1200, name: EventName.stalled.rawValue, fields: [("channel", .int(3)), ("seconds", .int(8))])
        let published = try object(FleetPayloads.event(event))
        #expect(published["event"] as? String == "stalled" && published["channel"] as? Int == 3 && published["t_ms"] as? Int == 1200)
    }

    @Test func discoveryMakesOneDeviceOfEachBox() throws {
        let topics = MQTTTopics(prefix: "zapper", boxID: "lobby")
        let documents = HomeAssistantDiscovery.documents(
            discoveryPrefix: "homeassistant", topics: topics, channels: [(1, "One"), (2, "Two\nLines")], version: "9.9.9")
        #expect(documents.map(\.topic) == [
            "homeassistant/select/lobby/channel/config", "homeassistant/number/lobby/volume/config",
            "homeassistant/switch/lobby/mute/config", "homeassistant/button/lobby/next/config",
            "homeassistant/button/lobby/previous/config", "homeassistant/sensor/lobby/status/config",
        ])
        var uniqueIDs = Set<String>()
        for document in documents {
            let config = try object(document.payload)
            for key in ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available", "device"] {
                #expect(config[key] != nil, "\(document.topic) has no \(key)")
            }
            #expect(config["availability_topic"] as? String == "zapper/lobby/availability")
            #expect(config["payload_not_available"] as? String == "offline")
            let device = try #require(config["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["zapper_lobby"])
            #expect(device["sw_version"] as? String == "9.9.9" && device["name"] as? String == "Zapper lobby")
            #expect(device["model"] != nil)
            uniqueIDs.insert(try #require(config["unique_id"] as? String))
            if document.topic.contains("/sensor/") {
                #expect(config["state_topic"] as? String == "zapper/lobby/state")
            } else {
                #expect((config["command_topic"] as? String)?.hasPrefix("zapper/lobby/command/") == true)
            }
        }
        #expect(uniqueIDs.count == documents.count)
        let select = try object(documents[0].payload)
        #expect(select["options"] as? [String] == ["1 One", "2 Two?Lines"])
        #expect(select["command_topic"] as? String == "zapper/lobby/command/tune")
        #expect(select["value_template"] as? String == "{{ value_json.select }}")
        let volume = try object(documents[1].payload)
        #expect(volume["min"] as? Int == 0 && volume["max"] as? Int == 100)
        #expect(volume["command_topic"] as? String == "zapper/lobby/command/volume")
        // The select's options and the state's `select` are made alike, so Home Assistant matches them.
        let state = try object(FleetPayloads.state(PlayerStatus(channel: 2, channelName: "Two\nLines", programme: nil,
                                                               volume: 1, muted: false, health: .loading)))
        #expect((select["options"] as? [String])?.contains(state["select"] as? String ?? "") == true)
    }

    @Test func aHugeLineupsSelectIsCapped() throws {
        let channels = (1...100_000).map { (number: $0, name: String(repeating: "N", count: 500)) }
        let documents = HomeAssistantDiscovery.documents(discoveryPrefix: "ha", topics: MQTTTopics(prefix: "z", boxID: "b"),
                                                         channels: channels)
        let options = try #require(try object(documents[0].payload)["options"] as? [String])
        #expect(options.count == HomeAssistantDiscovery.maxOptions)
        #expect(options.first == "1 " + String(repeating: "N", count: 60) + "…")
        #expect(documents[0].payload.count < 20_000)
    }
}
