import Testing
import ZapperCore

/// The HTTP API's gate: the bearer token, wrong tokens locking everyone out for a minute, and
/// the rate limit.
@Suite struct APIGateTests {
    static let token = "0123456789abcdef-lobby"

    @Test func theTokenIsNeededAndGuessersAreLockedOut() {
        var gate = APIGate(token: Self.token)
        #expect(gate.check(authorization: "Bearer \(Self.token)", now: 0) == .allowed)
        #expect(gate.check(authorization: nil, now: 0) == .unauthorized)
        #expect(gate.check(authorization: "Bearer \(Self.token)x", now: 0) == .unauthorized)
        #expect(gate.check(authorization: "Basic \(Self.token)", now: 0) == .unauthorized)
        #expect(gate.check(authorization: "Bearer 0123456789abcdef-lobbz", now: 0) == .unauthorized)
        #expect(gate.check(authorization: "Bearer ", now: 0) == .unauthorized, "the fifth wrong one in a minute")
        #expect(gate.check(authorization: "Bearer \(Self.token)", now: 1) == .tooMany(retryAfter: 59), "locked for everyone")
        #expect(gate.check(authorization: "Bearer \(Self.token)", now: 60) == .allowed)
    }

    @Test func aBurstIsAllowedThenTheRateHolds() {
        var gate = APIGate(token: Self.token)
        let allowed = (0..<30).filter { _ in gate.check(authorization: "Bearer \(Self.token)", now: 10) == .allowed }.count
        #expect(allowed == Int(APIGate.burst))
        #expect(gate.check(authorization: "Bearer \(Self.token)", now: 10) == .tooMany(retryAfter: 1))
        #expect(gate.check(authorization: "Bearer \(Self.token)", now: 10.25) == .allowed, "a fifth of a second refills one")
    }
}
