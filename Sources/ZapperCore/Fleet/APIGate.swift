/// Who may use the box's HTTP API: a request must carry `Authorization: Bearer <token>` with the
/// configured token (compared in constant time). Requests are rate-limited (a bucket of
/// `burst`, refilled at `perSecond`), and after `maxFailures` wrong tokens within a minute the
/// API refuses everyone for a minute: a guesser gets nowhere, and a box's owner waits a minute.
public struct APIGate: Sendable {
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// 401: no token, or the wrong one (said in the log).
        case unauthorized
        /// 429: too many requests, or locked after wrong tokens; try again after this many seconds.
        case tooMany(retryAfter: Int)
    }

    public static let burst = 20.0
    public static let perSecond = 5.0
    public static let maxFailures = 5
    public static let lockSeconds = 60.0

    private let token: [UInt8]
    private var tokens = APIGate.burst
    private var refilledAt: Double?
    private var failures: [Double] = []
    private var lockedUntil: Double?

    /// The minimum length of a configured token.
    public static let minimumTokenLength = 16

    public init(token: String) {
        self.token = Array(token.utf8)
    }

    /// The verdict on a request with `authorization` (the header, or nil) at `now` (seconds).
    public mutating func check(authorization: String?, now: Double) -> Verdict {
        if let lockedUntil, now < lockedUntil { return .tooMany(retryAfter: Int((lockedUntil - now).rounded(.up))) }
        tokens = min(Self.burst, tokens + (now - (refilledAt ?? now)) * Self.perSecond)
        refilledAt = now
        guard tokens >= 1 else { return .tooMany(retryAfter: 1) }
        tokens -= 1
        guard let authorization, authorization.hasPrefix("Bearer "), matches(Array(authorization.utf8.dropFirst(7))) else {
            failures = failures.filter { now - $0 < 60 } + [now]
            if failures.count >= Self.maxFailures {
                lockedUntil = now + Self.lockSeconds
                failures = []
            }
            return .unauthorized
        }
        return .allowed
    }

    /// Constant time in the length of what was sent.
    private func matches(_ sent: [UInt8]) -> Bool {
        var difference = UInt8(sent.count == token.count ? 0 : 1)
        for index in sent.indices { difference |= sent[index] ^ (index < token.count ? token[index] : 0) }
        return difference == 0
    }
}
