/// The configuration's `[mqtt]` section: where a box meets its fleet (Home Assistant,
/// a fleet's tools). ZapperSettings' `ConfigFile` reads it; ZapperMQTT connects with it.
public struct MQTTSettings: Sendable, Equatable {
    public var broker: MQTTBroker
    public var username: String?
    public var password: String?
    /// This box's level in every topic (`MQTTTopics.isValidBoxID`); default: the host name, sanitised.
    public var boxID: String
    /// The first level(s) of every topic but discovery's.
    public var topicPrefix: String
    /// Home Assistant's discovery prefix; nil: no discovery documents.
    public var discoveryPrefix: String?
    /// A PEM file of certificate authorities trusted for `mqtts://` besides the system's.
    public var caFile: String?

    public static let defaultTopicPrefix = "zapper"
    public static let defaultDiscoveryPrefix = "homeassistant"

    public init(broker: MQTTBroker, username: String? = nil, password: String? = nil, boxID: String,
                topicPrefix: String = defaultTopicPrefix, discoveryPrefix: String? = defaultDiscoveryPrefix, caFile: String? = nil) {
        self.broker = broker
        self.username = username
        self.password = password
        self.boxID = boxID
        self.topicPrefix = topicPrefix
        self.discoveryPrefix = discoveryPrefix
        self.caFile = caFile
    }

    public var topics: MQTTTopics { MQTTTopics(prefix: topicPrefix, boxID: boxID) }
}

/// `mqtt://host[:port]` (1883) or `mqtts://host[:port]` (8883, TLS).
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(shown):\(port)"
    }

    /// The broker a URL names, or why it names none. No user name or path in the URL
    /// (the credentials are keys of their own, so they never show where the URL is said).
    public static func parse(_ text: String) -> Result<MQTTBroker, MQTTSettingsRejection> {
        func reject(_ why: String) -> Result<MQTTBroker, MQTTSettingsRejection> { .failure(MQTTSettingsRejection(why)) }
        guard text.utf8.count <= 512 else { return reject("is longer than 512 bytes") }
        let tls: Bool
        var rest: Substring
        // Schemes are case-insensitive (RFC 3986 §3.1).
        let scheme = text.prefix { $0 != ":" }.lowercased()
        if scheme == "mqtt", text.dropFirst(4).hasPrefix("://") {
            tls = false
            rest = text.dropFirst(7)
        } else if scheme == "mqtts", text.dropFirst(5).hasPrefix("://") {
            tls = true
            rest = text.dropFirst(8)
        } else {
            return reject("\"\(text)\" is not an mqtt:// or mqtts:// URL")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("@") else { return reject("has a user in it: use the username and password keys") }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else { return reject("has a path: only mqtt(s)://host:port") }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return reject("has an unclosed [ in its host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return reject("has something after its host: \(after)") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return reject("has no IPv6 address between [ and ]")
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return reject("has more than one : (an IPv6 address goes in [ ])") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { return reject("has no host") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else {
                return reject("host \"\(host)\" has characters no host name has")
            }
        }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                return reject("port \"\(portText)\" is not a number from 1 to 65535")
            }
            port = number
        }
        return .success(MQTTBroker(host: String(host), port: port, tls: tls))
    }
}

/// Why a value of `[mqtt]` was refused (the configuration file names the key).
public struct MQTTSettingsRejection: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
