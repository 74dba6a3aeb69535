import Testing
@testable import ZapperCore

/// The Phone tab's link: an address a phone on the box's network can open, the token in the fragment.
@Suite struct PhoneLinkTests {
    let addresses = ["127.0.0.1", "::1", "169.254.3.4", "fe80::1", "192.168.1.20", "2001:db8::20"]

    @Test func aWildcardListenerGivesTheBoxsOwnAddressIPv4First() {
        let invite = PhoneLink.invite(listen: ListenAddress(host: "0.0.0.0", port: 0), port: 9464, token: "abc", addresses: addresses)
        #expect(invite == PanelPhoneInvite(link: "http://192.168.1.20:9464/remote#token=abc", address: "http://192.168.1.20:9464/remote"))
        // An IPv6 wildcard takes an IPv6 address when the box has no IPv4 one (never a link-local one).
        let six = PhoneLink.invite(listen: ListenAddress(host: "::", port: 9464), port: 9464, token: "abc",
                                   addresses: ["::1", "fe80::1", "2001:db8::20"])
        #expect(six.link == "http://[2001:db8::20]:9464/remote#token=abc")
        // 0.0.0.0 listens on IPv4 only.
        let none = PhoneLink.invite(listen: ListenAddress(host: "0.0.0.0", port: 9464), port: 9464, token: "abc",
                                    addresses: ["127.0.0.1", "2001:db8::20"])
        #expect(none.link == nil && none.problem == "This box has no network address yet.")
    }

    @Test func aGivenAddressIsUsedAsItIs() {
        let invite = PhoneLink.invite(listen: ListenAddress(host: "10.1.2.3", port: 8080), port: 8080, token: "t", addresses: addresses)
        #expect(invite.link == "http://10.1.2.3:8080/remote#token=t")
    }

    @Test func aLoopbackListenerOrOneThatDidNotStartHasNoLink() {
        let loopback = PhoneLink.invite(listen: ListenAddress(host: "127.0.0.1", port: 9464), port: 9464, token: "t", addresses: addresses)
        #expect(loopback.link == nil && loopback.address == "http://127.0.0.1:9464/remote")
        #expect(loopback.problem?.contains("[metrics] listen") == true)
        let dead = PhoneLink.invite(listen: ListenAddress(host: "0.0.0.0", port: 9464), port: nil, token: "t", addresses: addresses)
        #expect(dead.link == nil && dead.problem?.contains("not listening") == true)
    }

    /// The page reads the token with URLSearchParams, which takes '+' for a space: everything
    /// but unreserved characters is percent-encoded.
    @Test func theTokenIsEncodedSoThePageReadsItBackUnchanged() {
        let invite = PhoneLink.invite(listen: ListenAddress(host: "0.0.0.0", port: 1), port: 1, token: "a+b c&d=é#", addresses: addresses)
        #expect(invite.link == "http://192.168.1.20:1/remote#token=a%2Bb%20c%26d%3D%C3%A9%23")
    }
}
