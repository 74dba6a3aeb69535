import Foundation
import ZapperCore

/// Parental control: a `ParentalLayer` (its rules are there) whose effects are carried out here.
extension Player {
    /// Looks at the lock for the channel being played, each turn (cheap when nothing is due).
    func parentalTick(now: Int, date: Date) {
        carry(parental.tick(now: now, in: parentalContext(date)))
        audio.withhold(parental.withholdsSound)
    }

    /// A digit while locked goes to the PIN, not to number entry; true when taken.
    func parentalTakes(_ action: Action, now: Int) -> Bool {
        guard let effects = parental.take(action, now: now, in: parentalContext(clock.date)) else { return false }
        carry(effects)
        audio.withhold(parental.withholdsSound)
        return true
    }

    /// The locked card to draw, nil when the picture may show.
    func lockedCard(now: Int) -> LockedCard? {
        guard case .locked(let card) = parental.state(now: now) else { return nil }
        return LockedCard(channel: identity(of: card.channel), reason: card.reason, pinLength: card.pinLength,
                          typedCount: card.digitsTyped, message: card.message, isWarning: card.isWarning)
    }

    private func parentalContext(_ date: Date) -> ParentalLayer.Context {
        let hash = options.config.parental.pinHash
        let verify = ports.verifyPIN
        return ParentalLayer.Context(playing: playback?.channel, date: date, wallNow: Self.wallMilliseconds(clock),
                                     programme: { self.guide?.programme(for: $0, at: $1) },
                                     verify: hash.map { hash in { pin in verify(pin, hash) } })
    }

    private func carry(_ effects: [ParentalLayer.Effect]) {
        for effect in effects {
            switch effect {
            case .told(.locked(let channel, let rating)):
                log.emit(.locked(channel: channel, rating: rating))
                if options.config.parental.pinHash == nil { Self.say("no parental pin-hash is configured: it stays locked") }
            case .told(.unlocked(let channel, let reason)):
                log.emit(.unlocked(channel: channel, reason: reason.rawValue))
            case .told(.pinRejected(let channel, let triesLeft, let lockout)):
                log.emit(.pinRejected(channel: channel, triesLeft: triesLeft, lockoutSeconds: lockout))
            case .keep(let lockout):
                keeper.change { $0.parental = lockout }
            }
        }
    }
}
