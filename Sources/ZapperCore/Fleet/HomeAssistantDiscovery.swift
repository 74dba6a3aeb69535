/// Home Assistant's MQTT discovery: retained documents under
/// `<discovery-prefix>/<component>/<box-id>/<object>/config` that make each box one device
/// with a channel `select`, a volume `number`, a mute `switch`, `next` and `previous`
/// `button`s and a status `sensor`, each unavailable while the box is offline.
public enum HomeAssistantDiscovery {
    /// The select lists at most this many channels (the first in the lineup's order): Home
    /// Assistant keeps every option in its state machine and sends the list to each browser.
    /// Any channel can still be tuned by number on `command/tune`.
    public static let maxOptions = 200
    /// Characters of a channel's name in its option (`5 BBC One`).
    public static let maxOptionName = 60

    /// The select's option for a channel: its number, a space, its name (shortened, one line).
    public static func option(number: Int, name: String) -> String {
        let shown = FleetPayloads.shown(name, limit: maxOptionName)
        return shown.isEmpty ? "\(number)" : "\(number) \(shown)"
    }

    public struct Document: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
    }

    /// The documents for one box: `channels` is the lineup's (number, name), in its order.
    public static func documents(discoveryPrefix: String, topics: MQTTTopics, channels: [(number: Int, name: String)],
                                 version: String = ZapperVersion.current) -> [Document] {
        let box = topics.boxID
        let device: [String: Any] = [
            "identifiers": ["zapper_\(box)"],
            "name": "Zapper \(box)",
            "manufacturer": "Zapper",
            "model": "Zapper live TV",
            "sw_version": version,
        ]
        func document(_ component: String, _ object: String, _ name: String, _ fields: [String: Any]) -> Document {
            var config: [String: Any] = [
                "name": name,
                "unique_id": "zapper_\(box)_\(object)",
                "availability_topic": topics.availability,
                "payload_available": MQTTTopics.online,
                "payload_not_available": MQTTTopics.offline,
                "device": device,
            ]
            config.merge(fields) { _, new in new }
            return Document(topic: "\(discoveryPrefix)/\(component)/\(box)/\(object)/config", payload: FleetPayloads.json(config))
        }
        let options = channels.prefix(maxOptions).map { option(number: $0.number, name: $0.name) }
        return [
            document("select", "channel", "Channel", [
                "state_topic": topics.state, "value_template": "{{ value_json.select }}",
                "command_topic": topics.command("tune"), "options": options, "icon": "mdi:television-classic",
            ]),
            document("number", "volume", "Volume", [
                "state_topic": topics.state, "value_template": "{{ value_json.volume }}",
                "command_topic": topics.command("volume"), "min": 0, "max": 100, "step": 1, "mode": "slider",
                "icon": "mdi:volume-high",
            ]),
            document("switch", "mute", "Mute", [
                "state_topic": topics.state, "value_template": "{{ 'ON' if value_json.muted else 'OFF' }}",
                "command_topic": topics.command("mute"), "payload_on": "ON", "payload_off": "OFF",
                "state_on": "ON", "state_off": "OFF", "icon": "mdi:volume-off",
            ]),
            document("button", "next", "Next channel", [
                "command_topic": topics.command("next"), "payload_press": "PRESS", "icon": "mdi:chevron-up",
            ]),
            document("button", "previous", "Previous channel", [
                "command_topic": topics.command("previous"), "payload_press": "PRESS", "icon": "mdi:chevron-down",
            ]),
            document("sensor", "status", "Status", [
                "state_topic": topics.state, "value_template": "{{ value_json.health }}",
                "json_attributes_topic": topics.state, "icon": "mdi:television",
            ]),
        ]
    }
}
