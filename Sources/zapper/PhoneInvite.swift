import Glibc
import Synchronization
import ZapperCore

/// What the panel's Phone tab needs from this box: the HTTP API's address and token, the port
/// its listener bound (known once it started, after the player), and the box's own addresses,
/// read from the system each time the tab asks (DHCP may give one late, or another).
final class PhoneInvite: Sendable {
    let listen: ListenAddress
    let token: String
    let bound = Mutex<Int?>(nil)

    init(listen: ListenAddress, token: String) {
        self.listen = listen
        self.token = token
    }

    func invite() -> PanelPhoneInvite {
        PhoneLink.invite(listen: listen, port: bound.withLock { $0 }, token: token, addresses: Self.addresses())
    }

    /// The addresses of the interfaces that are up, IPv4 and IPv6, as text.
    static func addresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard entry.pointee.ifa_flags & UInt32(IFF_UP) != 0, let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            // An IPv6 link-local address carries its interface ("fe80::1%eth0").
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            found.append(name.split(separator: "%").first.map(String.init) ?? "")
        }
        return found
    }
}
