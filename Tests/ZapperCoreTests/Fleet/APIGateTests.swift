import Testing
import ZapperCore

/// The HTTP API's gate, client by client: the bearer token, a guesser locked out alone, the
/// owner's allowance untouched by strangers, and the bounded table of clients.
@Suite struct APIGateTests {
    static let token = "0123456789abcdef-lobby"
    static let owner = "Bearer \(token)"

    @Test func theTokenIsNeededAndAGuesserIsLockedOutAlone() {
        var gate = APIGate(token: Self.token)
        let guest = "192.168.1.66"
        #expect(gate.check(authorization: Self.owner, client: guest, now: 0) == .allowed)
        #expect(gate.check(authorization: nil, client: guest, now: 0) == .unauthorized(say: true))
        for wrong in ["Bearer \(Self.token)x", "Bearer 0123456789abcdef-lobbz", "Bearer ", "Bearer a"] {
            #expect(gate.check(authorization: wrong, client: guest, now: 0) == .unauthorized(say: false))
        }
        #expect(gate.check(authorization: "Bearer b", client: guest, now: 0) == .tooMany(retryAfter: 1), "its allowance is spent")
        #expect(gate.check(authorization: Self.owner, client: guest, now: 2) == .tooMany(retryAfter: 58),
                "five wrong tokens in a minute: the guesser's address is locked, the right token too")
        #expect(gate.check(authorization: Self.owner, client: "192.168.1.10", now: 2) == .allowed, "the owner is not")
        #expect(gate.check(authorization: Self.owner, client: guest, now: 61) == .allowed)
    }

    @Test func requestsWithoutATokenAreNoGuessesButHaveASmallAllowance() {
        var gate = APIGate(token: Self.token)
        let browser = "10.0.0.7"
        // A page's <img src=/status> every second for two minutes: 401s and 429s, never a lockout.
        var verdicts: [APIGate.Verdict] = []
        for second in 0..<120 {
            for _ in 0..<3 { verdicts.append(gate.check(authorization: nil, client: browser, now: Double(second))) }
        }
        #expect(!verdicts.contains(.allowed))
        #expect(verdicts.filter { $0 == .unauthorized(say: true) }.count == 2, "said once a minute")
        #expect(verdicts.contains(.tooMany(retryAfter: 1)))
        #expect(gate.check(authorization: Self.owner, client: browser, now: 120) == .allowed, "not locked")
    }

    @Test func strangersFromManyAddressesLeaveTheOwnersAllowance() {
        var gate = APIGate(token: Self.token)
        for host in 0..<500 { _ = gate.check(authorization: nil, client: "10.1.\(host / 250).\(host % 250)", now: 5) }
        let allowed = (0..<30).filter { _ in gate.check(authorization: Self.owner, client: "10.9.9.9", now: 5) == .allowed }.count
        #expect(allowed == Int(APIGate.burst))
        #expect(gate.check(authorization: Self.owner, client: "10.9.9.9", now: 5) == .tooMany(retryAfter: 1))
        #expect(gate.check(authorization: Self.owner, client: "10.9.9.9", now: 5.25) == .allowed, "a fifth of a second refills one")
    }

    @Test func theTableOfClientsIsBoundedAndKeepsItsLockouts() {
        var gate = APIGate(token: Self.token)
        for _ in 0..<APIGate.maxFailures { _ = gate.check(authorization: "Bearer guess", client: "10.0.0.1", now: 0) }
        for host in 0..<(APIGate.mostClients * 3) {
            _ = gate.check(authorization: nil, client: "172.16.\(host / 256).\(host % 256)", now: 1)
        }
        #expect(gate.clientCount == APIGate.mostClients)
        #expect(gate.check(authorization: Self.owner, client: "10.0.0.1", now: 2) == .tooMany(retryAfter: 58), "a flood does not wash a lockout away")
    }

    @Test func anIPv6HostIsItsSlash64() {
        #expect(APIGate.clientKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(APIGate.clientKey("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64")
        #expect(APIGate.clientKey("[2001:DB8::5]") == "2001:db8:0:0::/64")
        #expect(APIGate.clientKey("::ffff:192.168.1.4") == "192.168.1.4")
        #expect(APIGate.clientKey("::1") == "0:0:0:0::/64")
        #expect(APIGate.clientKey("192.168.1.4") == "192.168.1.4")
        var gate = APIGate(token: Self.token)
        for suffix in 0..<APIGate.maxFailures { _ = gate.check(authorization: "Bearer x", client: "2001:db8:1:2::\(suffix)", now: 0) }
        #expect(gate.check(authorization: Self.owner, client: "2001:db8:1:2::99", now: 1) == .tooMany(retryAfter: 59))
        #expect(gate.check(authorization: Self.owner, client: "2001:db8:1:3::99", now: 1) == .allowed)
    }
}
