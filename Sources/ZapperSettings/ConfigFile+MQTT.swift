import Foundation
import TOMLKit
import ZapperCore

/// The `[mqtt]` section (README: "MQTT and Home Assistant"):
///
/// ```toml
/// [mqtt]
/// # mqtt://host[:port] (1883) or mqtts://host[:port] (8883, TLS: the system's trust and ca-file).
/// broker = "mqtts://broker.example.net"
/// username = "zapper"
/// password = "secret"
/// # This box's topic level (A-Z a-z 0-9 _ -, at most 64); default: the host name, sanitised.
/// box-id = "lobby-1"
/// # Every topic's first level(s).
/// topic-prefix = "zapper"
/// # Home Assistant's discovery prefix; "" publishes no discovery documents.
/// discovery-prefix = "homeassistant"
/// # Certificate authorities (PEM) trusted for mqtts besides the system's.
/// ca-file = "/etc/zapper/broker-ca.pem"
/// ```
extension ConfigFile.Reader {
    mutating func readMQTT(_ table: TOMLTable, hostName: String) -> MQTTSettings? {
        let section = "mqtt"
        check(table, section: section, known: ConfigSection.mqtt.keys)
        guard let url = string(table, "broker", section: section) else {
            if table["broker"] == nil { fail("broker", section, "is missing (mqtt://host:port or mqtts://host:port)") }
            return nil
        }
        var broken = false
        var broker: MQTTBroker?
        switch MQTTBroker.parse(url) {
        case .success(let parsed): broker = parsed
        case .failure(let rejection): fail("broker", section, "\(rejection)"); broken = true
        }
        let boxID: String
        if let id = string(table, "box-id", section: section) {
            if !MQTTTopics.isValidBoxID(id) {
                fail("box-id", section, "\"\(FleetPayloads.shown(id, limit: 80))\" must be 1 to \(MQTTTopics.maxBoxID) of A-Z a-z 0-9 _ -")
                broken = true
            }
            boxID = id
        } else {
            boxID = MQTTTopics.boxID(fromHostName: hostName)
        }
        let prefix = string(table, "topic-prefix", section: section) ?? MQTTSettings.defaultTopicPrefix
        if let problem = MQTTTopics.prefixProblem(prefix) {
            fail("topic-prefix", section, problem)
            broken = true
        }
        var discovery: String? = MQTTSettings.defaultDiscoveryPrefix
        if let given = string(table, "discovery-prefix", section: section) {
            if given.isEmpty {
                discovery = nil
            } else if let problem = MQTTTopics.prefixProblem(given) {
                fail("discovery-prefix", section, problem)
                broken = true
            } else {
                discovery = given
            }
        }
        let username = string(table, "username", section: section)
        let password = string(table, "password", section: section)
        if password != nil, username == nil {
            fail("password", section, "is given without a username")
            broken = true
        }
        for (key, value) in [("username", username), ("password", password)] {
            if let value, value.isEmpty || value.utf8.count > 1024 {
                fail(key, section, "must be 1 to 1024 bytes")
                broken = true
            }
        }
        let caFile = string(table, "ca-file", section: section)
        if caFile?.isEmpty == true {
            fail("ca-file", section, "is empty")
            broken = true
        } else if caFile != nil, broker?.tls == false {
            fail("ca-file", section, "is for an mqtts:// broker")
            broken = true
        }
        guard let broker, !broken else { return nil }
        return MQTTSettings(broker: broker, username: username, password: password, boxID: boxID, topicPrefix: prefix,
                            discoveryPrefix: discovery, caFile: caFile)
    }
}

extension ConfigFile {
    /// This machine's host name (gethostname), for the default `box-id`.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "zapper" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
