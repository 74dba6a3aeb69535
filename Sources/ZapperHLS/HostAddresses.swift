import Dispatch
import Foundation
import Glibc
import ZapperCore

/// The addresses a host name resolves to, for `FetchPolicy`'s private-address
/// block. getaddrinfo blocks, so it runs on a Dispatch thread, never on Swift's
/// cooperative pool.
enum HostAddresses {
    /// Each address as 4 (IPv4) or 16 (IPv6) bytes; throws when the name does not resolve.
    static func resolve(_ host: String) async throws -> [[UInt8]] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try lookUp(name) })
            }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address (in brackets or not) rather than a name.
    static func isNumeric(_ host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    struct Unresolved: Error, CustomStringConvertible {
        var host: String
        var reason: String
        var description: String { "\(host) cannot be resolved (\(reason))" }
    }

    private static func lookUp(_ name: String) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else { throw Unresolved(host: name, reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let info = entry?.pointee, addresses.count < 64 {
            if info.ai_family == AF_INET, let raw = info.ai_addr {
                raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    addresses.append(withUnsafeBytes(of: address.pointee.sin_addr) { Array($0) })
                }
            } else if info.ai_family == AF_INET6, let raw = info.ai_addr {
                raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    addresses.append(withUnsafeBytes(of: address.pointee.sin6_addr) { Array($0) })
                }
            }
            entry = info.ai_next
        }
        return addresses
    }

    /// Formats an address for a message ("192.168.1.1", "fe80:0:0:0:0:0:0:1").
    static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: bytes.count - 1, by: 2)
            .map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
