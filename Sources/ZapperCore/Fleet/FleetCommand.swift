import Foundation

/// A command that came over MQTT (`<prefix>/<box-id>/command/<verb>`), read from its
/// payload. Payloads come from anyone who may publish on the broker: each is checked
/// (size, UTF-8, range) and refused with a reason, never trusted.
///
/// A payload is plain text (`5`, `5 BBC One` as Home Assistant's select sends it, `40`,
/// `ON`) or a JSON object (`{"channel": 5}`, `{"level": 40}`, `{"name": "KEY_OK"}`,
/// `{"muted": true}`, `{"url": "https://…"}`).
public enum FleetCommand: Sendable, Equatable {
    /// Carried out by the player's loop (`RemoteCommand`).
    case remote(RemoteCommand)
    /// The screen as a PNG: published on the `screenshot` topic, or PUT to this URL.
    case screenshot(upload: URL?)
    /// Read the lineup and the configuration again (zapper ends its loop and starts itself anew).
    case reload

    public static let verbs = ["tune", "next", "previous", "key", "volume", "mute", "screenshot", "reload"]
    /// The longest payload read; a longer one is refused unread.
    public static let maxPayload = 4096
    /// The highest channel number a `tune` names (a lineup's numbers are its own, but not this many).
    public static let maxChannelNumber = 999_999_999

    public static func parse(verb: String, payload: [UInt8]) -> Result<FleetCommand, FleetRefusal> {
        func refuse(_ why: String) -> Result<FleetCommand, FleetRefusal> { .failure(FleetRefusal(why)) }
        guard verbs.contains(verb) else {
            return refuse("no command \"\(FleetPayloads.shown(verb, limit: 64))\" (known: \(verbs.joined(separator: ", ")))")
        }
        guard payload.count <= maxPayload else { return refuse("a payload of \(payload.count) bytes is over \(maxPayload)") }
        guard let raw = String(validating: payload, as: UTF8.self) else { return refuse("the payload is not UTF-8 text") }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        var value = Scalar.text(text)
        if text.hasPrefix("{") {
            guard let object = try? JSONDecoder().decode([String: Scalar].self, from: Data(text.utf8)) else {
                return refuse("the payload is not a JSON object")
            }
            let key = ["tune": "channel", "volume": "level", "key": "name", "mute": "muted", "screenshot": "url"][verb]
            if let key {
                guard let field = object[key] else { return refuse("the JSON object has no \"\(key)\"") }
                value = field
            }
        }
        switch verb {
        case "next": return .success(.remote(.next))
        case "previous": return .success(.remote(.previous))
        case "reload": return .success(.reload)
        case "tune":
            // Home Assistant's select sends the option: "5 BBC One".
            var number = value
            if case .text(let text) = value { number = .text(String(text.prefix { $0 != " " })) }
            return integer(number, "a channel number", in: 1...maxChannelNumber).map { .remote(.tune(channel: $0)) }
        case "volume":
            return integer(value, "a volume", in: 0...100).map { .remote(.volume($0)) }
        case "mute":
            switch value {
            case .bool(let flag): return .success(.remote(.mute(flag)))
            case .text(let word):
                switch word.lowercased() {
                case "on", "true", "1": return .success(.remote(.mute(true)))
                case "off", "false", "0": return .success(.remote(.mute(false)))
                default: break
                }
            default: break
            }
            return refuse("mute takes ON, OFF, true or false, not \(FleetPayloads.shown("\(value)", limit: 64))")
        case "key":
            guard case .text(let name) = value, Keymap.isKeyName(name) else {
                return refuse("\(FleetPayloads.shown("\(value)", limit: 64)) is not a key name (KEY_…)")
            }
            return .success(.remote(.key(name)))
        default:  // screenshot
            guard case .text(let text) = value else { return refuse("the screenshot's url is not text") }
            // `now` (MQTT: an empty message only clears a retained one), or empty (the HTTP API).
            if text.isEmpty || text.lowercased() == "now" { return .success(.screenshot(upload: nil)) }
            guard text.utf8.count <= 2048 else { return refuse("the screenshot's URL is longer than 2048 bytes") }
            // Its scheme in any case, lower-cased (MediaURLPolicy).
            guard case .success(let url) = MediaURLPolicy.check(text) else {
                return refuse("\(FleetPayloads.shown(text, limit: 64)) is not an http(s) URL to PUT the screenshot to")
            }
            return .success(.screenshot(upload: url))
        }
    }

    /// A whole number within `range` from a payload's text or JSON number (`40.0` is 40).
    private static func integer(_ value: Scalar, _ what: String, in range: ClosedRange<Int>) -> Result<Int, FleetRefusal> {
        var number: Double?
        switch value {
        case .text(let text): number = text.utf8.count <= 32 ? Double(text) : nil
        case .number(let value): number = value
        default: break
        }
        guard let number, number.isFinite, number == number.rounded() else {
            return .failure(FleetRefusal("\(FleetPayloads.shown("\(value)", limit: 64)) is not \(what)"))
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            return .failure(FleetRefusal("\(what) must be within \(range.lowerBound)…\(range.upperBound), not \(FleetPayloads.shown("\(value)", limit: 64))"))
        }
        return .success(Int(number))
    }
}

/// A value of a JSON payload's field (objects and arrays are `other`: no command takes one).
enum Scalar: Decodable, CustomStringConvertible {
    case bool(Bool), number(Double), text(String), other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .other
        }
    }

    var description: String {
        switch self {
        case .bool(let flag): "\(flag)"
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
        case .text(let text): text
        case .other: "an object or array"
        }
    }
}

/// Why a command was not carried out (published on the `reply` topic and logged).
public struct FleetRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
