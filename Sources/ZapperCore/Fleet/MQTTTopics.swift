/// Every topic of one box, under `<prefix>/<box-id>/`:
///
/// - `state` (retained): the status JSON (`FleetPayloads.state`);
/// - `availability` (retained): `online`, or `offline` (also the last will);
/// - `event`: events worth a fleet's attention (`FleetPayloads.isWorthPublishing`);
/// - `command/<verb>`: what the box is asked to do (`FleetCommand`);
/// - `reply`: each command's answer;
/// - `screenshot`: a `screenshot` command's PNG, when it named no URL.
public struct MQTTTopics: Sendable, Equatable {
    public let prefix: String
    public let boxID: String

    public init(prefix: String, boxID: String) {
        self.prefix = prefix
        self.boxID = boxID
    }

    public var base: String { "\(prefix)/\(boxID)" }
    public var state: String { "\(base)/state" }
    public var availability: String { "\(base)/availability" }
    public var event: String { "\(base)/event" }
    public var reply: String { "\(base)/reply" }
    public var screenshot: String { "\(base)/screenshot" }
    /// What the box subscribes to.
    public var commands: String { "\(base)/command/+" }
    public func command(_ verb: String) -> String { "\(base)/command/\(verb)" }

    public static let online = "online"
    public static let offline = "offline"

    /// The verb of a command topic of this box; nil for any other topic.
    public func verb(of topic: String) -> String? {
        let head = "\(base)/command/"
        guard topic.hasPrefix(head) else { return nil }
        let verb = topic.dropFirst(head.count)
        return verb.isEmpty || verb.contains("/") ? nil : String(verb)
    }

    /// A box id is one topic level that Home Assistant also takes as a node id: 1 to 64 of
    /// `A-Z a-z 0-9 _ -`.
    public static func isValidBoxID(_ id: String) -> Bool {
        (1...maxBoxID).contains(id.utf8.count) && id.utf8.allSatisfy(isIDByte)
    }

    public static let maxBoxID = 64

    /// The host name as a box id: each run of other characters becomes one `-`, ends trimmed,
    /// at most 64 characters; `zapper` when nothing is left.
    public static func boxID(fromHostName name: String) -> String {
        var out: [UInt8] = []
        for byte in name.utf8 {
            if isIDByte(byte) && byte != UInt8(ascii: "-") {
                out.append(byte)
            } else if out.last != UInt8(ascii: "-") {
                out.append(UInt8(ascii: "-"))
            }
        }
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        while out.first == UInt8(ascii: "-") { out.removeFirst() }
        out = Array(out.prefix(maxBoxID))
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        return out.isEmpty ? "zapper" : String(decoding: out, as: UTF8.self)
    }

    /// A topic prefix is one or more levels (`a/b`), none empty, no wildcard (`+`, `#`), no
    /// NUL, at most 128 bytes; nil when it is one, else why not.
    public static func prefixProblem(_ prefix: String) -> String? {
        if prefix.isEmpty { return "is empty" }
        if prefix.utf8.count > 128 { return "is longer than 128 bytes" }
        if prefix.contains("+") || prefix.contains("#") { return "has an MQTT wildcard (+ or #)" }
        if prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "has a control character" }
        if prefix.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "has an empty level (a leading, trailing or doubled /)"
        }
        return nil
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
