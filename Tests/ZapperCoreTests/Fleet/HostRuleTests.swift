import Testing
import ZapperCore

/// The `Host` a request to the box may name: IP literals, `localhost` and the configured
/// names; a rebinding page's own name is refused.
struct HostRuleTests {
    @Test(arguments: ["192.168.1.20", "192.168.1.20:9100", "127.0.0.1:80", "[::1]:9100", "[fe80::1%eth0]", "[2001:db8::7]",
                      "[::ffff:10.0.0.1]:80", "localhost", "LOCALHOST:9100", "localhost.", "tv-412.hotel.lan", "TV-412.Hotel.LAN.:9100", nil])
    func allowed(host: String?) {
        #expect(HostRule(names: ["tv-412.hotel.lan"]).allows(host), "\(host ?? "none")")
    }

    @Test(arguments: ["attacker.example", "attacker.example:9100", "192.168.1.20.attacker.example", "192.168.1", "256.1.1.1",
                      "192.168.1.20:99999", "192.168.1.20:", "[::1", "[::1]x", "[not:an:address]", "[1:2:3:4:5:6:7:8:9]",
                      "[1::2::3]", "localhost.attacker.example", "", "tv-412.hotel.lan.evil", "a:b:c"])
    func refused(host: String) {
        #expect(!HostRule(names: ["tv-412.hotel.lan"]).allows(host), "\(host)")
    }

    @Test func configuredNamesAreDNSNames() {
        #expect(HostRule.isValidName("tv-412.hotel.lan"))
        #expect(HostRule.isValidName("Lobby."))
        #expect(!HostRule.isValidName("-bad.lan"))
        #expect(!HostRule.isValidName("under_score.lan"))
        #expect(!HostRule.isValidName("a..b"))
        #expect(!HostRule.isValidName(String(repeating: "a", count: 64)))
        #expect(!HostRule.isValidName(""))
    }
}
