/// Where a listener of the box binds (the configuration's `[metrics] listen`):
/// an IPv4 address, an IPv6 address in brackets, or `localhost`, then a port.
/// `"127.0.0.1:9464"`, `"0.0.0.0:9464"`, `"[::1]:9464"`. Port 0 takes a free port
/// (the listener says which on stderr).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The address, or why the text is not one (in words for the configuration's error).
    public static func parse(_ text: String) -> Result<ListenAddress, Rejection> {
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            return .failure(Rejection("\"\(text.prefix(64))\" is not HOST:PORT (e.g. \"127.0.0.1:9464\")"))
        }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(Rejection("\"\(text)\": an IPv6 address is written [ADDRESS]:PORT, e.g. \"[::1]:9464\""))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard isIPv6(host) else { return .failure(Rejection("\"\(host)\" is not an IPv6 address")) }
        } else {
            guard let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon else {
                return .failure(Rejection("\"\(text)\" is not HOST:PORT (e.g. \"127.0.0.1:9464\")"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard host == "localhost" || isIPv4(host) else {
                return .failure(Rejection("\"\(host)\" is not an IP address (e.g. 127.0.0.1, 0.0.0.0, [::1]) or localhost"))
            }
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = Int(portText), (0...65_535).contains(port) else {
            return .failure(Rejection("\"\(portText)\" is not a port (0 to 65535)"))
        }
        return .success(ListenAddress(host: String(host), port: port))
    }

    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part).map { $0 <= 255 } == true
        }
    }

    static func isIPv6(_ text: Substring) -> Bool {
        let hex = Set("0123456789abcdefABCDEF:.")
        let groups = text.split(separator: ":", omittingEmptySubsequences: false)
        return (2...9).contains(groups.count) && text.allSatisfy { hex.contains($0) } && groups.allSatisfy { $0.count <= 4 || $0.contains(".") }
    }

    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
