import Foundation

/// Where a fetch may go, hop by hop. Lineups, playlists, guides and logos
/// come from servers nobody here controls, and so do their redirects:
///
/// - every hop is checked as the first URL is (`MediaURLPolicy`: http or https
///   with a host), after resolving a relative `Location` against the URL that
///   answered;
/// - a redirect from https to http is refused (it would hand a private
///   lineup's session token, and the picture, to anyone on the path);
/// - at most `maxRedirects` hops, and none back to a URL already visited;
/// - with `blockPrivateAddresses` (a box fed by lineups from untrusted
///   sources), no hop may reach a loopback, link-local, private or otherwise
///   local address (`isLocal`): a lineup must not make the box probe its own
///   network. The HTTP backend resolves names and checks every address.
public enum FetchPolicy {
    public static let maxRedirects = 5

    /// The redirect statuses followed (the others are answers).
    public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The next hop of a redirect from `from`, given its `Location` header.
    public static func redirect(from: URL, location: String?, visited: [URL]) -> Result<URL, URLRejection> {
        guard let location, !location.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(URLRejection(url: from.absoluteString, reason: "redirects without a Location"))
        }
        guard visited.count <= maxRedirects else {
            return .failure(URLRejection(url: from.absoluteString, reason: "redirects more than \(maxRedirects) times"))
        }
        let next: URL
        switch MediaURLPolicy.resolve(location, against: from) {
        case .failure(let rejection):
            return .failure(URLRejection(url: from.absoluteString, reason: "redirects to \(rejection.url), which \(rejection.reason)"))
        case .success(let url): next = url
        }
        if from.scheme?.lowercased() == "https", next.scheme?.lowercased() == "http" {
            return .failure(URLRejection(url: from.absoluteString,
                                         reason: "redirects from https to http (\(next.absoluteString)): refused"))
        }
        if visited.contains(where: { $0.absoluteString == next.absoluteString }) {
            return .failure(URLRejection(url: from.absoluteString, reason: "redirects in a loop (\(next.absoluteString))"))
        }
        return .success(next)
    }

    /// Whether an address (4 bytes of IPv4 or 16 of IPv6, network order) is
    /// one a box must not be sent to when private addresses are blocked:
    /// unspecified, loopback, link-local, private (RFC 1918, IPv6 unique
    /// local), carrier-grade NAT, multicast and broadcast, and IPv4 written
    /// inside IPv6 (mapped, compatible, 6to4) judged as IPv4.
    public static func isLocal(address bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4:
            let (a, b) = (bytes[0], bytes[1])
            return a == 0 || a == 10 || a == 127 || a >= 224
                || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 100 && (64...127).contains(b))
        case 16:
            let head = bytes[0..<12]
            if head.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return isLocal(address: Array(bytes[12...]))                              // ::ffff:a.b.c.d
            }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return true }                       // :: and ::1
            if head.allSatisfy({ $0 == 0 }) { return isLocal(address: Array(bytes[12...])) } // ::a.b.c.d
            if bytes[0] == 0x20, bytes[1] == 0x02 { return isLocal(address: Array(bytes[2..<6])) } // 6to4
            return bytes[0] == 0xFF                                                        // multicast
                || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)                           // fe80::/10
                || (bytes[0] & 0xFE == 0xFC)                                               // fc00::/7
        default:
            return true
        }
    }

    /// Host names that are local whatever a resolver says.
    public static func isLocalName(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local")
    }
}
