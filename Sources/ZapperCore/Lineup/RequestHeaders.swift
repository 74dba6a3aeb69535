/// The HTTP headers a lineup asks for on every request of one channel (its
/// servers refuse others with 403): from `#EXTVLCOPT:http-user-agent=…`,
/// `http-referrer=…` and `http-origin=…` lines, the `user-agent="…"` and
/// `referrer="…"` attributes, or Kodi's `URL|User-Agent=…&Referer=…` suffix.
public struct RequestHeaders: Sendable, Hashable {
    public var userAgent: String?
    public var referrer: String?
    public var origin: String?

    public init(userAgent: String? = nil, referrer: String? = nil, origin: String? = nil) {
        self.userAgent = userAgent
        self.referrer = referrer
        self.origin = origin
    }

    public static let none = RequestHeaders()
    public var isEmpty: Bool { self == .none }

    /// A value longer than this is refused (a lineup line is not a place for kilobytes of header).
    public static let maxValueLength = 1024

    /// Why a header value cannot be sent as it is, or nil when it can: no control
    /// characters (a CR or LF would start a header of the lineup's choosing), not too long.
    public static func problem(_ value: String) -> String? {
        if value.unicodeScalars.count > maxValueLength { return "longer than \(maxValueLength) characters" }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "holds control characters" }
        return nil
    }

    /// Sets the header a lineup names (`user-agent`, `referrer`/`referer`, `origin`, in any case, with or
    /// without `http-`); false when the name is none of them. A value that cannot be sent throws its reason.
    public mutating func set(_ name: String, _ value: String) throws(HeaderProblem) -> Bool {
        var key = name.lowercased()
        if key.hasPrefix("http-") { key.removeFirst(5) }
        let path: WritableKeyPath<RequestHeaders, String?>
        switch key {
        case "user-agent": path = \.userAgent
        case "referrer", "referer": path = \.referrer
        case "origin": path = \.origin
        default: return false
        }
        if let problem = Self.problem(value) { throw HeaderProblem(name: name, reason: problem) }
        self[keyPath: path] = value.isEmpty ? nil : value
        return true
    }

    /// These headers with `other`'s on top where it has them.
    public func overlaid(by other: RequestHeaders) -> RequestHeaders {
        RequestHeaders(userAgent: other.userAgent ?? userAgent, referrer: other.referrer ?? referrer, origin: other.origin ?? origin)
    }

    /// Kodi's suffix: `URL|User-Agent=Mozilla%2F5.0&Referer=…`. Returns the URL without it, and its
    /// headers (values percent-decoded; names it does not know are passed over).
    public static func splitKodiSuffix(_ line: String) throws(HeaderProblem) -> (url: String, headers: RequestHeaders) {
        guard let bar = line.utf8.firstIndex(of: UInt8(ascii: "|")) else { return (line, .none) }
        var headers = RequestHeaders()
        for pair in line[line.index(after: bar)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            guard let decoded = parts[1].removingPercentEncoding else {
                throw HeaderProblem(name: parts[0], reason: "is not percent-encoded correctly")
            }
            _ = try headers.set(parts[0], decoded)
        }
        return (String(line[..<bar]), headers)
    }
}

/// A header value a lineup gives that cannot be sent.
public struct HeaderProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var reason: String
    public var description: String { "header \(name) \(reason)" }
}
