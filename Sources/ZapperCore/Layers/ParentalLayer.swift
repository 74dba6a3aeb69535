import Foundation

/// The parental lock as a layer: a channel or programme rated above the limit shows the locked
/// card instead of its picture and its sound is withheld, until the PIN is typed (`ParentalGate`
/// holds the lock, the tries and the lockouts).
///
/// - The playing channel is looked at again each second, and right at its programme's end
///   (the next programme's rating applies from its first frame), and at once on another channel.
/// - While locked, digits go to the PIN (not to number entry) and Back clears the digits typed;
///   other keys pass on. Every PIN typed is checked by the caller's `verify` (nil: no PIN is
///   configured: it stays locked, which is said once a lock comes).
/// - Wrong PINs and a lockout are to be kept in the state: pulling the plug must not reset them.
public struct ParentalLayer: ScreenLayer, Equatable {
    public enum Effect: Sendable, Equatable {
        case told(ParentalGate.Event)
        /// The wrong tries and lockout to keep (nil: none to keep).
        case keep(ParentalLockout?)
    }

    public struct Context {
        /// The channel playing (nil: none yet).
        public var playing: LineupChannel?
        public var date: Date
        /// Wall-clock milliseconds since 1970 (a lockout outlasts a restart).
        public var wallNow: Int
        /// The programme on a channel at a time, from the guide.
        public var programme: (LineupChannel, Date) -> Programme?
        /// Whether a typed PIN is the configured one (nil: no PIN is configured).
        public var verify: ((String) -> Bool)?

        public init(playing: LineupChannel?, date: Date, wallNow: Int, programme: @escaping (LineupChannel, Date) -> Programme?,
                    verify: ((String) -> Bool)?) {
            self.playing = playing
            self.date = date
            self.wallNow = wallNow
            self.programme = programme
            self.verify = verify
        }
    }

    public private(set) var gate: ParentalGate
    /// The playing channel's sound is withheld (locked).
    public private(set) var withholdsSound = false
    private var checkDue = 0

    public init(gate: ParentalGate) {
        self.gate = gate
    }

    public var isLocked: Bool { gate.isLocked }

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        guard gate.isLocked else { return nil }
        switch action {
        case .digit(let digit):
            let verify = context.verify
            let told = gate.enter(digit: digit, now: now) { pin in verify?(pin) ?? false }
            let lockout = gate.lockout(now: now, wallNow: context.wallNow)
            withholdsSound = gate.isLocked
            return told.map(Effect.told) + [.keep(lockout == ParentalLockout() ? nil : lockout)]
        case .back where gate.state(now: now).typedDigits > 0:
            gate.clearDigits()
            return []
        default:
            return nil
        }
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        guard gate.policy.maxAge != nil || gate.policy.lockUnknown, let playing = context.playing else {
            withholdsSound = false
            return []
        }
        guard now >= checkDue || gate.channel != playing.number else {
            withholdsSound = gate.isLocked
            return []
        }
        let programme = context.programme(playing, context.date)
        // Again in a second (a guide that arrives, a timeout), or right at the programme's end.
        let untilEnd = programme.map { max(0, Int(($0.stop.timeIntervalSince(context.date) * 1000).rounded(.up))) }
        checkDue = now + min(1000, untilEnd ?? 1000)
        let told = gate.update(channel: playing.number, channelRating: playing.rating, programmeRating: programme?.rating, now: now)
        withholdsSound = gate.isLocked
        return told.map(Effect.told)
    }

    /// Wrong tries and a lockout kept from before a restart.
    public mutating func restore(_ saved: ParentalLockout, now: Int, wallNow: Int) {
        gate.restore(saved, now: now, wallNow: wallNow)
    }

    /// The locked card's state now.
    public func state(now: Int) -> ParentalGate.State { gate.state(now: now) }
}

extension ParentalGate.State {
    /// The digits of the PIN typed so far on the locked card.
    public var typedDigits: Int {
        if case .locked(let card) = self { return card.digitsTyped }
        return 0
    }
}
