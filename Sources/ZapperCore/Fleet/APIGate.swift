/// Who may use the box's HTTP API, client by client: a request must carry
/// `Authorization: Bearer <token>` with the configured token (compared in constant time).
///
/// The rules (a hotel's guests share the owner's network):
/// - Every limit is per client: its address, an IPv6 one by its /64 (`clientKey`). What one
///   client does never refuses another; a request with the right token is refused only for
///   what its own address did.
/// - The right token draws on the client's bucket of `burst`, refilled at `perSecond`.
/// - No token, or a wrong one, draws on a small bucket of its own (`strangerBurst`, refilled at
///   `strangerPerSecond`), also per client, and is answered 401 while it lasts, then 429.
/// - `maxFailures` wrong tokens (a bearer token that is not the one) from a client within a
///   minute lock that client out for `lockSeconds`: all its requests get 429, with the right
///   token too, so a guesser learns nothing. A request with no token is no guess.
/// - At most `mostClients` are remembered; when a new one comes, the one seen longest ago goes,
///   clients locked out last of all (forgetting is only ever in a client's favour, and a
///   lockout outlives a flood of other addresses).
/// - 401s are said in the log once a minute per client at most (`Verdict.unauthorized(say:)`).
public struct APIGate: Sendable {
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// 401: no token, or the wrong one; `say`: the first for this client this minute.
        case unauthorized(say: Bool)
        /// 429: too many requests, or locked after wrong tokens; try again after this many seconds.
        case tooMany(retryAfter: Int)
    }

    public static let burst = 20.0
    public static let perSecond = 5.0
    public static let strangerBurst = 5.0
    public static let strangerPerSecond = 1.0
    public static let maxFailures = 5
    public static let lockSeconds = 60.0
    public static let mostClients = 1024

    /// The minimum length of a configured token.
    public static let minimumTokenLength = 16

    private struct Bucket: Sendable {
        var tokens: Double
        var refilledAt: Double

        /// Takes one, if there is one after refilling to `capacity` at `rate` since the last time.
        mutating func take(now: Double, capacity: Double, rate: Double) -> Bool {
            tokens = min(capacity, tokens + max(0, now - refilledAt) * rate)
            refilledAt = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }

    private struct Client: Sendable {
        var owner: Bucket
        var stranger: Bucket
        var failures: [Double] = []
        var lockedUntil: Double?
        var saidAt: Double?
        var seenAt: Double

        init(now: Double) {
            owner = Bucket(tokens: APIGate.burst, refilledAt: now)
            stranger = Bucket(tokens: APIGate.strangerBurst, refilledAt: now)
            seenAt = now
        }
    }

    private let token: [UInt8]
    private var clients: [String: Client] = [:]

    public init(token: String) {
        self.token = Array(token.utf8)
    }

    /// How many clients are remembered now.
    public var clientCount: Int { clients.count }

    /// The verdict on a request from `client` (its address as the socket gives it) with
    /// `authorization` (the header, or nil) at `now` (seconds).
    public mutating func check(authorization: String?, client address: String, now: Double) -> Verdict {
        let key = Self.clientKey(address)
        var client = clients[key] ?? Client(now: now)
        if clients[key] == nil { makeRoom(now: now) }
        defer {
            client.seenAt = now
            clients[key] = client
        }
        if let lockedUntil = client.lockedUntil {
            if now < lockedUntil { return .tooMany(retryAfter: max(1, Int((lockedUntil - now).rounded(.up)))) }
            client.lockedUntil = nil
        }
        let sent = authorization.flatMap { $0.hasPrefix("Bearer ") ? Array($0.utf8.dropFirst(7)) : nil }
        if let sent, matches(sent) {
            return client.owner.take(now: now, capacity: Self.burst, rate: Self.perSecond) ? .allowed : .tooMany(retryAfter: 1)
        }
        if sent != nil {
            client.failures = client.failures.filter { now - $0 < 60 } + [now]
            if client.failures.count >= Self.maxFailures {
                client.lockedUntil = now + Self.lockSeconds
                client.failures = []
            }
        }
        guard client.stranger.take(now: now, capacity: Self.strangerBurst, rate: Self.strangerPerSecond) else {
            return .tooMany(retryAfter: Int((1 / Self.strangerPerSecond).rounded(.up)))
        }
        let say = client.saidAt.map { now - $0 >= 60 } ?? true
        if say { client.saidAt = now }
        return .unauthorized(say: say)
    }

    /// A client's key: its IPv4 address; an IPv6 one's first 64 bits (one host can have a
    /// whole /64); an IPv4-mapped IPv6 address as its IPv4 one.
    public static func clientKey(_ address: String) -> String {
        let bare = address.hasPrefix("[") ? String(address.dropFirst().prefix { $0 != "]" }) : address
        guard bare.contains(":") else { return bare }
        let lower = bare.lowercased()
        if lower.hasPrefix("::ffff:"), lower.dropFirst(7).contains(".") { return String(lower.dropFirst(7)) }
        // Expand "::" to count the groups; the first four are the /64.
        let halves = lower.components(separatedBy: "::")
        let head = halves[0].split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        let tail = halves.count > 1 ? halves[1].split(separator: ":", omittingEmptySubsequences: true).map(String.init) : []
        let groups = head + Array(repeating: "0", count: max(0, 8 - head.count - tail.count)) + tail
        return groups.prefix(4).map { String(Int($0.prefix { $0 != "%" }, radix: 16) ?? 0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// Forgets the client seen longest ago when the table is full, those locked out last.
    private mutating func makeRoom(now: Double) {
        guard clients.count >= Self.mostClients else { return }
        let victim = clients.min { a, b in
            let lockedA = (a.value.lockedUntil ?? 0) > now, lockedB = (b.value.lockedUntil ?? 0) > now
            return lockedA != lockedB ? !lockedA : a.value.seenAt < b.value.seenAt
        }
        if let victim { clients[victim.key] = nil }
    }

    /// Constant time in the length of what was sent.
    private func matches(_ sent: [UInt8]) -> Bool {
        var difference = UInt8(sent.count == token.count ? 0 : 1)
        for index in sent.indices { difference |= sent[index] ^ (index < token.count ? token[index] : 0) }
        return difference == 0
    }
}
