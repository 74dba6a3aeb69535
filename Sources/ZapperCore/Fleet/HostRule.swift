/// Which `Host` a request to the box's listener may name, so that a DNS-rebinding page in a
/// guest's browser (its own name pointed at the box) cannot read the API, the metrics or the
/// remote page: only what a person on the network types or a QR code carries.
///
/// The rules:
/// - An IP literal (IPv4 dotted quad, or IPv6 in brackets), `localhost`, or a name listed in
///   `[api] hostnames`, with or without a port; names compared without case and without a
///   final dot.
/// - No `Host` at all (HTTP/1.0) names nothing a page could rebind: allowed.
/// - Anything else is answered `421 Misdirected Request`.
public struct HostRule: Sendable, Equatable {
    /// The names allowed beside IP literals and `localhost`, lower-cased, without a final dot.
    public let names: Set<String>
    public static let mostNames = 32

    public init(names: [String] = []) {
        self.names = Set(names.prefix(Self.mostNames).map(Self.normalised))
    }

    public func allows(_ host: String?) -> Bool {
        guard let host else { return true }
        let trimmed = Substring(host).trimmingSpaces
        if trimmed.hasPrefix("[") {
            // [IPv6] or [IPv6]:port.
            guard let close = trimmed.firstIndex(of: "]") else { return false }
            let rest = trimmed[trimmed.index(after: close)...]
            let literal = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            return (rest.isEmpty || Self.isPort(rest.dropFirst()) && rest.first == ":") && Self.isIPv6(literal)
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.count == 1 || Self.isPort(parts[1]) else { return false }
        let name = Self.normalised(String(parts[0]))
        return Self.isIPv4(name) || name == "localhost" || names.contains(name)
    }

    /// What `[api] hostnames` may hold: a DNS name of letters, digits, hyphens and dots.
    public static func isValidName(_ name: String) -> Bool {
        let labels = normalised(name).split(separator: ".", omittingEmptySubsequences: false)
        return (1...253).contains(name.utf8.count) && labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }

    static func normalised(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.count) && text.allSatisfy { ("0"..."9").contains($0) } && (Int(text) ?? 0) <= 65_535
    }

    static func isIPv4(_ text: String) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { (1...3).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } && Int($0)! <= 255 }
    }

    static func isIPv6(_ text: Substring) -> Bool {
        let address = text.split(separator: "%", maxSplits: 1).first ?? ""  // a zone id after %
        guard (2...45).contains(address.count), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        let doubled = address.components(separatedBy: "::").count - 1
        let groups = address.split(separator: ":", omittingEmptySubsequences: true)
        return doubled <= 1 && groups.count <= 8 && (doubled == 1 || groups.count == 8 || groups.last?.contains(".") == true)
            && groups.allSatisfy { $0.contains(".") ? isIPv4(String($0)) : (1...4).contains($0.count) }
    }
}
