import Foundation

/// What a box publishes, as bytes: the state, the replies, the events a fleet watches.
public enum FleetPayloads {
    /// The retained state:
    /// `{"channel": 5, "channel_name": "…", "select": "5 …", "programme": "…"|null,
    ///   "volume": 40, "muted": false, "health": "playing"|"loading"|"failed", "failure": "http-404"}`
    /// (`failure` only when failed; `select` is the channel as Home Assistant's select lists it).
    public static func state(_ status: PlayerStatus) -> [UInt8] {
        var object: [String: Any] = [
            "channel": status.channel,
            "channel_name": status.channelName,
            "select": HomeAssistantDiscovery.option(number: status.channel, name: status.channelName),
            "programme": status.programme.map { $0 as Any } ?? NSNull(),
            "volume": status.volume,
            "muted": status.muted,
            "health": status.health.name,
        ]
        if case .failed(let failure) = status.health { object["failure"] = failure }
        return json(object)
    }

    /// A command's answer: `{"command": "tune", "payload": "5", "result": "done"}`, or with
    /// `"result": "refused", "reason": "…"`. The payload is echoed (at most 64 characters) so
    /// a sender can tell its answers apart.
    public static func reply(verb: String, payload: [UInt8], refusal: String?) -> [UInt8] {
        var object: [String: Any] = [
            "command": shown(verb, limit: 64),
            "payload": shown(String(decoding: payload.prefix(256), as: UTF8.self), limit: 64),
            "result": refusal == nil ? "done" : "refused",
        ]
        if let refusal { object["reason"] = refusal }
        return json(object)
    }

    /// The events a fleet is told of on the `event` topic: a channel that fails, stalls or
    /// comes back, its sources failing over, sound lost and back, a crash loop. Not keys,
    /// tunes or pictures: those are the state's, or too many.
    public static let publishedEvents: Set<EventName> = [
        .loadFailed, .loadRecovered, .sourceFailover, .stalled, .audioFailed, .soundLost, .soundBack, .crashLoop,
    ]

    public static func isWorthPublishing(_ name: EventName) -> Bool { publishedEvents.contains(name) }

    /// An event as the `event` topic carries it: its event-log line.
    public static func event(_ event: Event) -> [UInt8] { Array(event.jsonLine.utf8) }

    /// Outside text as it may be repeated in a reply or the log: control characters as `?`,
    /// at most `limit` characters (then `…`).
    public static func shown(_ text: String, limit: Int) -> String {
        var out = String(text.unicodeScalars.prefix(limit).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
        if text.unicodeScalars.count > limit { out += "…" }
        return out
    }

    static func json(_ object: [String: Any]) -> [UInt8] {
        // Only strings, numbers, booleans, null, arrays and objects go in: serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }
}
