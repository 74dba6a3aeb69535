/// Parental control: decides whether the tuned channel is locked, takes the
/// PIN digit by digit, and limits guessing.
///
/// - A channel is locked when its own rating (`LineupChannel.rating`) or the
///   rating of the programme on now is above `maxAge` (see `RatingAge`); an
///   unknown or missing rating locks only with `lockUnknown`.
/// - The PIN is typed with the digit keys; when `pinLength` digits are in, the
///   caller's `verify` closure checks them (hashing lives outside the core).
/// - 5 wrong PINs in a row lock PIN entry for 30 s, the next 5 for 60 s, and so
///   on, doubling up to an hour. A right PIN resets both counts. The counts are
///   the gate's, not the channel's: flipping away does not reset them.
/// - An unlock lasts until the channel changes or `unlockTimeout` passes; then
///   the next `update` locks again if the channel still needs it.
///
/// All times are `now` values in milliseconds on one monotonic clock.
public struct ParentalGate: Sendable, Equatable {
    public struct Policy: Sendable, Equatable {
        /// `nil`: parental control is off and nothing locks.
        public var maxAge: Int?
        public var lockUnknown: Bool
        public var pinLength: Int
        public var unlockTimeoutMs: Int

        public init(maxAge: Int?, lockUnknown: Bool = false, pinLength: Int = 4, unlockTimeoutMs: Int = 4 * 3_600_000) {
            self.maxAge = maxAge
            self.lockUnknown = lockUnknown
            self.pinLength = max(1, pinLength)
            self.unlockTimeoutMs = unlockTimeoutMs
        }

        public init(_ config: ZapperConfig.Parental) {
            self.init(maxAge: config.maxAge, lockUnknown: config.lockUnknown, pinLength: config.pinLength,
                      unlockTimeoutMs: config.unlockTimeout * 1000)
        }
    }

    /// Wrong PINs allowed before entry locks.
    public static let triesBeforeLockout = 5
    public static let firstLockoutMs = 30_000
    public static let longestLockoutMs = 3_600_000

    /// What the screen shows.
    public enum State: Sendable, Equatable {
        case open
        case locked(Card)
    }

    /// What the locked card says (the UI's `LockedCard` is filled from it):
    /// picture and sound are withheld while it shows.
    public struct Card: Sendable, Equatable {
        public var channel: Int
        /// The rating that locked it, as written ("TV-MA", "18"), or "unrated".
        public var rating: String
        public var digitsTyped: Int
        public var pinLength: Int
        /// "Enter PIN to watch", "Wrong PIN – 3 tries left", "Too many wrong PINs – try again in 30 s".
        public var message: String
        /// Seconds until PIN entry opens again; `nil` when it is open.
        public var lockoutSeconds: Int?
        /// The message reports a wrong PIN or a lockout (drawn as a warning).
        public var isWarning: Bool
        /// "Rated 18", or "Unrated" when an unknown rating locked it.
        public var reason: String { rating == "unrated" ? "Unrated" : "Rated \(rating)" }
    }

    /// For the event log.
    public enum Event: Sendable, Equatable {
        case locked(channel: Int, rating: String)
        case unlocked(channel: Int, reason: UnlockReason)
        case pinRejected(channel: Int, triesLeft: Int, lockoutSeconds: Int?)
    }

    public enum UnlockReason: String, Sendable, Equatable {
        /// The right PIN was entered.
        case pin
        /// The channel or its programme no longer needs a lock.
        case notRestricted = "not-restricted"
    }

    public var policy: Policy
    public private(set) var channel: Int?
    /// The rating that locks the current channel, `nil` when it needs no lock.
    public private(set) var restriction: String?
    private struct Unlock: Sendable, Equatable {
        var channel: Int
        var at: Int
    }
    private var unlocked: Unlock?
    private var typed = ""
    // Internal, not private: `ParentalLockout` saves and restores them.
    var wrongInARow = 0
    var lockouts = 0
    var lockedUntil: Int?
    var lastWrongTriesLeft: Int?

    public init(policy: Policy) {
        self.policy = policy
    }

    /// The rating that puts a channel over the limit, or `nil` when it may be
    /// watched: the channel's own rating or the programme's, whichever is over.
    public func restriction(channelRating: String?, programmeRating: ProgrammeRating?) -> String? {
        guard let maxAge = policy.maxAge else { return nil }
        var unknown: String?
        var worst: (rating: String, age: Int)?
        let candidates: [(String, Int?)] = [
            channelRating.map { ($0, RatingAge.age(of: $0)) },
            programmeRating.map { ($0.value, RatingAge.age(of: $0)) },
        ].compactMap { $0 }
        for (rating, age) in candidates {
            guard let age else { unknown = unknown ?? rating; continue }
            if age > maxAge, age > (worst?.age ?? -1) { worst = (rating, age) }
        }
        if let worst { return worst.rating }
        guard policy.lockUnknown else { return nil }
        // With lockUnknown, a channel with no known rating at all locks too.
        if let unknown { return unknown.isEmpty ? "unrated" : unknown }
        return candidates.isEmpty ? "unrated" : nil
    }

    /// Called when a channel is tuned and whenever the programme on it may
    /// have changed (a timer of a few seconds is fine): locks or opens it.
    public mutating func update(channel: Int, channelRating: String?, programmeRating: ProgrammeRating?,
                                now: Int) -> [Event] {
        let wasLocked = isLocked
        let previousChannel = self.channel
        if previousChannel != channel {
            typed = ""
            lastWrongTriesLeft = nil
        }
        if let unlock = unlocked, unlock.channel != channel || now - unlock.at >= policy.unlockTimeoutMs {
            unlocked = nil
        }
        self.channel = channel
        restriction = restriction(channelRating: channelRating, programmeRating: programmeRating)
        let locked = isLocked
        if locked, !wasLocked || previousChannel != channel {
            return [.locked(channel: channel, rating: restriction ?? "unrated")]
        }
        if !locked, wasLocked, previousChannel == channel, unlocked == nil {
            typed = ""
            return [.unlocked(channel: channel, reason: .notRestricted)]
        }
        return []
    }

    /// Whether picture and sound are withheld now.
    public var isLocked: Bool {
        guard let channel, restriction != nil else { return false }
        return unlocked?.channel != channel
    }

    /// A digit key while the card shows. Ignored when nothing is locked (the
    /// caller then uses digits for channel numbers) and while entry is locked out.
    public mutating func enter(digit: Int, now: Int, verify: (String) -> Bool) -> [Event] {
        guard isLocked, let channel, (0...9).contains(digit) else { return [] }
        if let until = lockedUntil, now < until { return [] }
        lockedUntil = nil
        typed.append(String(digit))
        guard typed.count >= policy.pinLength else { return [] }
        let pin = typed
        typed = ""
        if verify(pin) {
            wrongInARow = 0
            lockouts = 0
            lastWrongTriesLeft = nil
            unlocked = Unlock(channel: channel, at: now)
            return [.unlocked(channel: channel, reason: .pin)]
        }
        wrongInARow += 1
        if wrongInARow >= Self.triesBeforeLockout {
            wrongInARow = 0
            let length = min(Self.longestLockoutMs, Self.firstLockoutMs << min(lockouts, 20))
            lockouts += 1
            lockedUntil = now + length
            lastWrongTriesLeft = 0
            return [.pinRejected(channel: channel, triesLeft: 0, lockoutSeconds: length / 1000)]
        }
        lastWrongTriesLeft = Self.triesBeforeLockout - wrongInARow
        return [.pinRejected(channel: channel, triesLeft: Self.triesBeforeLockout - wrongInARow, lockoutSeconds: nil)]
    }

    /// Back on the card: the typed digits are cleared.
    public mutating func clearDigits() {
        typed = ""
    }

    /// What to draw at `now`.
    public func state(now: Int) -> State {
        guard isLocked, let channel else { return .open }
        var card = Card(channel: channel, rating: restriction ?? "unrated", digitsTyped: typed.count,
                        pinLength: policy.pinLength, message: "Enter PIN to watch", lockoutSeconds: nil, isWarning: false)
        if let until = lockedUntil, now < until {
            let seconds = (until - now + 999) / 1000
            card.lockoutSeconds = seconds
            card.message = "Too many wrong PINs – try again in \(Self.spoken(seconds: seconds))"
            card.isWarning = true
        } else if let left = lastWrongTriesLeft, left > 0 {
            card.message = "Wrong PIN – \(left) \(left == 1 ? "try" : "tries") left"
            card.isWarning = true
        }
        return .locked(card)
    }

    static func spoken(seconds: Int) -> String {
        seconds < 60 ? "\(seconds) s" : "\((seconds + 59) / 60) min"
    }
}
