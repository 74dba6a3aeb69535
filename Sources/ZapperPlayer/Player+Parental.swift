import Foundation
import ZapperCore

/// Parental control (issue 6): a channel or programme rated above the limit
/// shows the locked card instead of its picture, and its sound is withheld,
/// until the PIN is typed with the digit keys.
extension Player {
    /// Re-evaluates the lock for the channel being played (each tick: cheap
    /// when nothing changed; the programme on now can change at any minute).
    func parentalTick(now: Int, date: Date) {
        guard gate.policy.maxAge != nil || gate.policy.lockUnknown, let playing = playback?.channel else {
            audio.withhold(false)
            return
        }
        guard now >= parentalCheckDue || gate.channel != playing.number else {
            audio.withhold(gate.isLocked)
            return
        }
        let programme = guide?.programme(for: playing, at: date)
        // Again in a second (a guide that arrives, a timeout), or right at the programme's end: the
        // next programme's rating applies from its first frame.
        let untilEnd = programme.map { max(0, Int(($0.stop.timeIntervalSince(date) * 1000).rounded(.up))) }
        parentalCheckDue = now + min(1000, untilEnd ?? 1000)
        report(gate.update(channel: playing.number, channelRating: playing.rating, programmeRating: programme?.rating, now: now))
        audio.withhold(gate.isLocked)
    }

    /// A digit while locked goes to the PIN, not to number entry; true when taken.
    func parentalTakes(_ action: Action, now: Int) -> Bool {
        guard gate.isLocked else { return false }
        switch action {
        case .digit(let digit):
            let hash = options.config.parental.pinHash
            let verify = ports.verifyPIN
            report(gate.enter(digit: digit, now: now) { pin in hash.map { verify(pin, $0) } ?? false })
            // Wrong PINs and a lockout outlast a restart (pulling the plug must not reset them).
            let lockout = gate.lockout(now: now, wallNow: Self.wallMilliseconds(clock))
            keeper.change { $0.parental = lockout == ParentalLockout() ? nil : lockout }
            audio.withhold(gate.isLocked)
            return true
        case .back where gate.state(now: now).typedDigits > 0:
            gate.clearDigits()
            return true
        default:
            return false
        }
    }

    /// The locked card to draw, nil when the picture may show.
    func lockedCard(now: Int) -> LockedCard? {
        guard case .locked(let card) = gate.state(now: now) else { return nil }
        return LockedCard(channel: identity(of: card.channel), reason: card.reason, pinLength: card.pinLength,
                          typedCount: card.digitsTyped, message: card.message, isWarning: card.isWarning)
    }

    private func report(_ events: [ParentalGate.Event]) {
        for event in events {
            switch event {
            case let .locked(channel, rating):
                log.emit(.locked(channel: channel, rating: rating))
                if options.config.parental.pinHash == nil { Self.say("no parental pin-hash is configured: it stays locked") }
            case let .unlocked(channel, reason):
                log.emit(.unlocked(channel: channel, reason: reason.rawValue))
            case let .pinRejected(channel, triesLeft, lockout):
                log.emit(.pinRejected(channel: channel, triesLeft: triesLeft, lockoutSeconds: lockout))
            }
        }
    }
}

extension ParentalGate.State {
    var typedDigits: Int {
        if case .locked(let card) = self { return card.digitsTyped }
        return 0
    }
}
