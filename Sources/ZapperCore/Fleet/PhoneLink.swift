import Foundation

/// The link the panel's Phone tab shows as a code: the box's remote-control page on the HTTP
/// API's address, the token in the fragment (`/remote#token=…`: a fragment never reaches a
/// server or its log). A phone on the same network has to reach that address, so a loopback
/// listener gets a reason instead, and a wildcard one (`0.0.0.0`, `::`) the box's own address.
public enum PhoneLink {
    /// `listen`: the configured address; `port`: the one the listener bound (nil: it did not
    /// start); `addresses`: the box's network addresses as text, in the order the system lists them.
    public static func invite(listen: ListenAddress, port: Int?, token: String, addresses: [String]) -> PanelPhoneInvite {
        guard let port else {
            return PanelPhoneInvite(link: nil, address: "http://\(listen)/remote",
                                    problem: "The HTTP API is not listening: zapper's log says why.")
        }
        let configured = ListenAddress(host: listen.host, port: port)
        if isLoopback(listen.host) {
            return PanelPhoneInvite(link: nil, address: "http://\(configured)/remote",
                                    problem: "The HTTP API listens on this box only. For a phone, set [metrics] listen to the box's network address or to 0.0.0.0.")
        }
        let host: String
        if isWildcard(listen.host) {
            guard let own = preferred(addresses, ipv6Allowed: listen.host.contains(":")) else {
                return PanelPhoneInvite(link: nil, address: "http://\(configured)/remote",
                                        problem: "This box has no network address yet.")
            }
            host = own
        } else {
            host = listen.host
        }
        let page = "http://\(ListenAddress(host: host, port: port))/remote"
        return PanelPhoneInvite(link: page + "#token=" + encoded(token), address: page)
    }

    /// The first address a phone could reach: IPv4 before IPv6, never loopback or link-local.
    static func preferred(_ addresses: [String], ipv6Allowed: Bool) -> String? {
        let usable = addresses.filter { !isLoopback($0) && !$0.hasPrefix("169.254.") && !$0.lowercased().hasPrefix("fe80:") }
        return usable.first { !$0.contains(":") } ?? (ipv6Allowed ? usable.first { $0.contains(":") } : nil)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func isWildcard(_ host: String) -> Bool {
        host.isEmpty || host == "0.0.0.0" || host == "::"
    }

    /// The token as a query value the page's `URLSearchParams` reads back unchanged ('+' too).
    static func encoded(_ token: String) -> String {
        let safe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return token.addingPercentEncoding(withAllowedCharacters: safe) ?? ""
    }
}
