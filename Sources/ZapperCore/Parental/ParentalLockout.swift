/// The part of `ParentalGate` that must survive a restart: the wrong PINs in a
/// row, how many lockouts came before (each one doubles), and when PIN entry
/// opens again. Without it, pulling the plug would reset a lockout.
public struct ParentalLockout: Codable, Equatable, Sendable {
    public var wrongInARow: Int
    public var lockouts: Int
    /// Wall-clock milliseconds since 1970 when PIN entry opens again; nil when open.
    public var openAt: Int?

    public init(wrongInARow: Int = 0, lockouts: Int = 0, openAt: Int? = nil) {
        self.wrongInARow = wrongInARow
        self.lockouts = lockouts
        self.openAt = openAt
    }
}

extension ParentalGate {
    /// The lockout to save; `now` is the gate's clock, `wallNow` the wall clock, both in ms.
    public func lockout(now: Int, wallNow: Int) -> ParentalLockout {
        let left = lockedUntil.map { $0 - now }.flatMap { $0 > 0 ? $0 : nil }
        return ParentalLockout(wrongInARow: wrongInARow, lockouts: lockouts,
                               openAt: left.map { wallNow.addingReportingOverflow($0).partialValue })
    }

    /// Takes back a saved lockout. The values come from a file: counts are
    /// clamped, and a lockout never lasts longer than the longest one from now
    /// (a clock set back must not lock entry for a year).
    public mutating func restore(_ saved: ParentalLockout, now: Int, wallNow: Int) {
        wrongInARow = min(max(0, saved.wrongInARow), Self.triesBeforeLockout - 1)
        lockouts = min(max(0, saved.lockouts), 20)
        lockedUntil = nil
        lastWrongTriesLeft = wrongInARow > 0 ? Self.triesBeforeLockout - wrongInARow : nil
        guard let openAt = saved.openAt else { return }
        let (left, overflow) = openAt.subtractingReportingOverflow(wallNow)
        guard !overflow, left > 0 else { return }
        lockedUntil = now + min(left, Self.longestLockoutMs)
        lastWrongTriesLeft = 0
    }
}
