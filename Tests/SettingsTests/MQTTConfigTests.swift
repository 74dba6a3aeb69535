import Foundation
import Testing
import ZapperCore
@testable import ZapperSettings

/// `[mqtt]` in the configuration file: its keys, defaults, and bad values named by file, line and key.
@Suite struct MQTTConfigTests {
    func problems(_ text: String) -> String {
        do {
            _ = try ConfigFile.parse(text, file: "/etc/zapper/zapper.toml", hostName: "box")
            return "no error"
        } catch {
            return error.description
        }
    }

    /// The example in ConfigFile+MQTT's doc comment, the one Sources/zapper/README.md shows ("MQTT and Home Assistant").
    @Test func readsTheDocumentedExample() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ZapperSettings/ConfigFile+MQTT.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("/// ```toml") })
        let end = try #require(lines[(start + 1)...].firstIndex { $0.contains("/// ```") })
        let text = lines[(start + 1)..<end].map { $0.replacingOccurrences(of: "/// ", with: "").replacingOccurrences(of: "///", with: "") }
            .joined(separator: "\n")
        let mqtt = try #require(try ConfigFile.parse(text, file: "zapper.toml", hostName: "box").mqtt)
        #expect(mqtt == MQTTSettings(broker: MQTTBroker(host: "broker.example.net", port: 8883, tls: true), username: "zapper",
                                     password: "secret", boxID: "lobby-1", topicPrefix: "zapper", discoveryPrefix: "homeassistant",
                                     caFile: "/etc/zapper/broker-ca.pem"))
    }

    @Test func theBoxIsTheHostNameUnlessNamed() throws {
        let config = try ConfigFile.parse("[mqtt]\nbroker = \"mqtt://127.0.0.1:1884\"\n", file: "z.toml", hostName: "tv.hotel.lan")
        let mqtt = try #require(config.mqtt)
        #expect(mqtt.boxID == "tv-hotel-lan" && mqtt.topicPrefix == "zapper" && mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.broker == MQTTBroker(host: "127.0.0.1", port: 1884, tls: false) && mqtt.username == nil)
        #expect(mqtt.topics.state == "zapper/tv-hotel-lan/state")
        let noDiscovery = try ConfigFile.parse("[mqtt]\nbroker = \"mqtt://b\"\ndiscovery-prefix = \"\"\ntopic-prefix = \"site/3\"\n",
                                               file: "z.toml", hostName: "x")
        #expect(noDiscovery.mqtt?.discoveryPrefix == nil && noDiscovery.mqtt?.topics.base == "site/3/x")
        #expect(try ConfigFile.parse("", file: "z.toml").mqtt == nil)
    }

    @Test func badValuesNameTheKey() {
        #expect(problems("[mqtt]\nusername = \"u\"\n") == "/etc/zapper/zapper.toml: mqtt.broker: is missing (mqtt://host:port or mqtts://host:port)")
        #expect(problems("[mqtt]\nbroker = \"tcp://b:1883\"\n")
            == "/etc/zapper/zapper.toml:2: mqtt.broker: \"tcp://b:1883\" is not an mqtt:// or mqtts:// URL")
        #expect(problems("[mqtt]\nbroker = \"mqtt://b\"\nbox-id = \"lobby/1\"\n")
            == "/etc/zapper/zapper.toml:3: mqtt.box-id: \"lobby/1\" must be 1 to 64 of A-Z a-z 0-9 _ -")
        #expect(problems("[mqtt]\nbroker = \"mqtt://b\"\ntopic-prefix = \"a/#\"\n")
            == "/etc/zapper/zapper.toml:3: mqtt.topic-prefix: has an MQTT wildcard (+ or #)")
        #expect(problems("[mqtt]\nbroker = \"mqtt://b\"\npassword = \"p\"\n")
            == "/etc/zapper/zapper.toml:3: mqtt.password: is given without a username")
        #expect(problems("[mqtt]\nbroker = \"mqtt://b\"\nca-file = \"/ca.pem\"\n")
            == "/etc/zapper/zapper.toml:3: mqtt.ca-file: is for an mqtts:// broker")
        #expect(problems("[mqtt]\nbroker = \"mqtt://b\"\nport = 1883\n").hasPrefix(
            "/etc/zapper/zapper.toml:3: mqtt.port: unknown key (known: box-id, broker, ca-file, discovery-prefix, password, topic-prefix, username)"))
        #expect(problems("[mqtt]\nbroker = 1883\n") == "/etc/zapper/zapper.toml:2: mqtt.broker: expected a string, found integer")
        #expect(problems("mqtt = \"mqtt://b\"\n") == "/etc/zapper/zapper.toml:1: mqtt: expected a table [mqtt], found string")
    }
}
