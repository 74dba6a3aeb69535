import Foundation
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

/// Schemes from outside in any case: the lineup's, a playlist's, MQTT's and the API's.
struct UpperCaseSchemeTests {
    @Test func aLineupsOrAPlaylistsURLHasItsSchemeLowerCasedAndTheRestAsSent() throws {
        let url = try MediaURLPolicy.check("HTTP://Example.COM:8080/Live/Index.m3u8?Token=A").get()
        #expect(url.absoluteString == "http://Example.COM:8080/Live/Index.m3u8?Token=A")
        let resolved = try MediaURLPolicy.resolve("HTTPS://cdn.example/seg-1.ts", against: URL(string: "http://origin.example/a/index.m3u8")!).get()
        #expect(resolved.scheme == "https")
        #expect(throws: URLRejection.self) { try MediaURLPolicy.check("FILE:///etc/passwd").get() }
    }

    @Test func theBrokersSchemeIsCaseInsensitive() throws {
        #expect(try MQTTBroker.parse("MQTT://broker.lan:1884").get() == MQTTBroker.parse("mqtt://broker.lan:1884").get())
        #expect(try MQTTBroker.parse("Mqtts://broker.lan").get().tls)
        #expect(throws: MQTTSettingsRejection.self) { try MQTTBroker.parse("MQTTX://broker.lan").get() }
    }

    @Test func theScreenshotsUploadURLIsCaseInsensitive() {
        guard case .success(.screenshot(let upload)) = FleetCommand.parse(verb: "screenshot", payload: Array(#"{"url": "HTTPS://up.example/shot.png"}"#.utf8)) else {
            Issue.record("refused")
            return
        }
        #expect(upload?.absoluteString == "https://up.example/shot.png")
    }
}
