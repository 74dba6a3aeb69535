import Testing
import ZapperCore

@Suite struct ListenAddressTests {
    @Test func parsesIPv4IPv6AndLocalhost() throws {
        #expect(try ListenAddress.parse("127.0.0.1:9464").get() == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse("0.0.0.0:0").get() == ListenAddress(host: "0.0.0.0", port: 0))
        #expect(try ListenAddress.parse("[::1]:9464").get() == ListenAddress(host: "::1", port: 9464))
        #expect(try ListenAddress.parse("localhost:80").get() == ListenAddress(host: "localhost", port: 80))
        #expect(ListenAddress(host: "::1", port: 9464).description == "[::1]:9464")
    }

    @Test(arguments: ["", "9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "256.0.0.1:80", "1.2.3:80",
                      "example.com:80", "::1:9464", "[::1]9464", "[zz]:1", "127.0.0.1:99999999999999999999", "127.0.0.1: 80",
                      "[::1]:+80", "１２７.0.0.1:80"])
    func rejects(_ text: String) {
        if case .success(let address) = ListenAddress.parse(text) { Issue.record("\(text) parsed as \(address)") }
    }
}
