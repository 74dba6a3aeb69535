import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct RatingAgeTests {
    @Test func readsTheCommonSystems() {
        let cases: [(String, String?, Int?)] = [
            ("G", "MPAA", 0), ("PG", "MPAA", 10), ("PG-13", "MPAA", 13), ("R", "MPAA", 17), ("NC-17", nil, 18),
            ("TV-Y", "VCHIP", 0), ("TV-Y7", nil, 7), ("TV-G", nil, 0), ("TV-PG", nil, 10), ("TV-14", nil, 14),
            ("TV-MA", "VCHIP", 17), ("tv 14", nil, 14), ("TV_MA", nil, 17),
            ("U", "BBFC", 0), ("PG", "BBFC", 8), ("12A", "BBFC", 12), ("15", "BBFC", 15), ("18", nil, 18), ("R18", nil, 18),
            ("FSK 16", nil, 16), ("FSK-0", "FSK", 0), ("ab 12", nil, 12), ("16+", nil, 16), ("+18", nil, 18), ("6", nil, 6),
            ("XXX", nil, 18), ("Adult", nil, 18),
            ("NR", nil, nil), ("Unrated", nil, nil), ("", nil, nil), ("99", nil, nil), ("PG-99", nil, nil),
        ]
        for (rating, system, age) in cases {
            #expect(RatingAge.age(of: rating, system: system) == age, "\(rating) (\(system ?? "-"))")
        }
        #expect(RatingAge.age(of: ProgrammeRating(system: "VCHIP", value: "TV-MA")) == 17)
    }

    static let spellings = ["TV-14", "PG-13", "NC-17", "TV-Y7", "TV-MA", "R18", "FSK 16", "12A", "16+", "U", "18"]

    /// Case, spaces, hyphens and underscores never change a rating's age.
    @Test func spellingDoesNotMatter() async {
        let index = Gen.int(in: 0...(Self.spellings.count - 1))
        await propertyCheck(count: 300, input: index, Gen.int(in: 0...3).array(of: 0...12)) { index, edits in
            let rating = Self.spellings[index]
            var respelled = ""
            for (position, character) in rating.enumerated() {
                let edit = edits.isEmpty ? 0 : edits[position % edits.count]
                switch edit {
                case 1: respelled += character.lowercased()
                case 2: respelled += " " + String(character)
                case 3: respelled += String(character) + "_"
                default: respelled.append(character)
                }
            }
            #expect(RatingAge.age(of: respelled) == RatingAge.age(of: rating), "\(respelled)")
            #expect(RatingAge.age(of: rating) != nil)
        }
    }
}

@Suite struct ParentalGateTests {
    static let pin = "4711"
    func verify(_ pin: String) -> Bool { pin == Self.pin }

    func gate(maxAge: Int? = 12, lockUnknown: Bool = false) -> ParentalGate {
        ParentalGate(policy: .init(maxAge: maxAge, lockUnknown: lockUnknown, unlockTimeoutMs: 60_000))
    }

    func type(_ digits: String, into gate: inout ParentalGate, at now: Int) -> [ParentalGate.Event] {
        digits.flatMap { gate.enter(digit: Int(String($0))!, now: now, verify: verify) }
    }

    @Test func aChannelOrItsProgrammeAboveTheLimitLocks() {
        let gate = gate()
        #expect(gate.restriction(channelRating: "16", programmeRating: nil) == "16")
        #expect(gate.restriction(channelRating: "12", programmeRating: nil) == nil)
        #expect(gate.restriction(channelRating: "PG", programmeRating: ProgrammeRating(system: "VCHIP", value: "TV-MA")) == "TV-MA")
        #expect(gate.restriction(channelRating: "18", programmeRating: ProgrammeRating(value: "16")) == "18")
        #expect(gate.restriction(channelRating: nil, programmeRating: nil) == nil)
        #expect(gate.restriction(channelRating: "NR", programmeRating: nil) == nil)
        // Parental control off: nothing locks.
        #expect(self.gate(maxAge: nil).restriction(channelRating: "18", programmeRating: nil) == nil)
    }

    @Test func unknownRatingsLockOnlyWhenConfigured() {
        let strict = gate(lockUnknown: true)
        #expect(strict.restriction(channelRating: "NR", programmeRating: nil) == "NR")
        #expect(strict.restriction(channelRating: nil, programmeRating: nil) == "unrated")
        // A known rating within the limit is enough to watch.
        #expect(strict.restriction(channelRating: "6", programmeRating: nil) == nil)
        #expect(strict.restriction(channelRating: nil, programmeRating: ProgrammeRating(value: "12")) == nil)
    }

    @Test func theRightPINUnlocksUntilTheChannelChanges() throws {
        var gate = gate()
        #expect(gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0) == [.locked(channel: 5, rating: "18")])
        #expect(gate.isLocked)
        #expect(gate.state(now: 0) == .locked(.init(channel: 5, rating: "18", digitsTyped: 0, pinLength: 4,
                                                    message: "Enter PIN to watch", lockoutSeconds: nil, isWarning: false)))
        #expect(type("47", into: &gate, at: 10).isEmpty)
        do {
            let card = try #require(gate.state(now: 10).card)
            #expect(card.digitsTyped == 2)
        }
        #expect(type("11", into: &gate, at: 20) == [.unlocked(channel: 5, reason: .pin)])
        #expect(gate.state(now: 20) == .open && !gate.isLocked)
        #expect(gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 30).isEmpty)
        #expect(!gate.isLocked)
        // Another channel and back: locked again.
        #expect(gate.update(channel: 6, channelRating: nil, programmeRating: nil, now: 40).isEmpty)
        #expect(gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 50) == [.locked(channel: 5, rating: "18")])
    }

    @Test func anUnlockTimesOut() {
        var gate = gate()
        _ = gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0)
        _ = type(Self.pin, into: &gate, at: 1_000)
        #expect(gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 60_999).isEmpty)
        #expect(gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 61_000) == [.locked(channel: 5, rating: "18")])
    }

    @Test func aProgrammeWithinTheLimitOpensAndTheNextOneLocks() {
        var gate = gate()
        let late = ProgrammeRating(system: "VCHIP", value: "TV-MA")
        #expect(gate.update(channel: 1, channelRating: nil, programmeRating: ProgrammeRating(value: "6"), now: 0).isEmpty)
        #expect(gate.update(channel: 1, channelRating: nil, programmeRating: late, now: 1) == [.locked(channel: 1, rating: "TV-MA")])
        #expect(gate.update(channel: 1, channelRating: nil, programmeRating: nil, now: 2) == [.unlocked(channel: 1, reason: .notRestricted)])
    }

    @Test func wrongPINsCountDownThenLockEntryForAGrowingTime() throws {
        var gate = gate()
        _ = gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0)
        #expect(type("0000", into: &gate, at: 0) == [.pinRejected(channel: 5, triesLeft: 4, lockoutSeconds: nil)])
        do {
            let card = try #require(gate.state(now: 0).card)
            #expect(card.message == "Wrong PIN – 4 tries left" && card.digitsTyped == 0 && card.isWarning)
            #expect(card.reason == "Rated 18")
        }
        for _ in 0..<3 { _ = type("0000", into: &gate, at: 0) }
        do {
            let card = try #require(gate.state(now: 0).card)
            #expect(card.message == "Wrong PIN – 1 try left")
        }
        #expect(type("0000", into: &gate, at: 0) == [.pinRejected(channel: 5, triesLeft: 0, lockoutSeconds: 30)])
        do {
            let card = try #require(gate.state(now: 500).card)
            #expect(card.lockoutSeconds == 30 && card.message == "Too many wrong PINs – try again in 30 s")
        }
        // Digits, even the right PIN, are ignored during the lockout; flipping away does not reset it.
        #expect(type(Self.pin, into: &gate, at: 29_999).isEmpty)
        _ = gate.update(channel: 6, channelRating: "18", programmeRating: nil, now: 29_999)
        #expect(type(Self.pin, into: &gate, at: 29_999).isEmpty && gate.isLocked)
        // After it, 5 more wrong ones lock for twice as long.
        for _ in 0..<4 { _ = type("1111", into: &gate, at: 30_000) }
        #expect(type("1111", into: &gate, at: 30_000) == [.pinRejected(channel: 6, triesLeft: 0, lockoutSeconds: 60)])
        do {
            let card = try #require(gate.state(now: 30_000).card)
            #expect(card.message == "Too many wrong PINs – try again in 1 min")
        }
        do {
            let card = try #require(gate.state(now: 90_000).card)
            #expect(card.lockoutSeconds == nil && card.message == "Enter PIN to watch" && !card.isWarning)
        }
        // A success resets everything: the next wrong PIN has 4 tries left again.
        #expect(type(Self.pin, into: &gate, at: 90_000) == [.unlocked(channel: 6, reason: .pin)])
        _ = gate.update(channel: 7, channelRating: "18", programmeRating: nil, now: 90_001)
        #expect(type("0000", into: &gate, at: 90_002) == [.pinRejected(channel: 7, triesLeft: 4, lockoutSeconds: nil)])
    }

    @Test func digitsAreIgnoredWhenNothingIsLockedAndBackClearsThem() {
        var gate = gate()
        _ = gate.update(channel: 1, channelRating: "6", programmeRating: nil, now: 0)
        #expect(type("4711", into: &gate, at: 0).isEmpty)
        _ = gate.update(channel: 2, channelRating: "18", programmeRating: nil, now: 0)
        _ = type("47", into: &gate, at: 0)
        gate.clearDigits()
        #expect(type("47", into: &gate, at: 0).isEmpty)
        #expect(type("11", into: &gate, at: 0) == [.unlocked(channel: 2, reason: .pin)])
    }

    /// However fast digits are typed, no more than 5 wrong PINs are ever tried
    /// per lockout, and lockouts grow: between the 5k-th wrong PIN and the next
    /// one at least min(30 s × 2^(k-1), 1 h) pass.
    @Test func guessingIsRateLimited() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...9).array(of: 0...400), Gen.int(in: 0...20_000).array(of: 1...50)) { digits, gaps in
            var gate = ParentalGate(policy: .init(maxAge: 0))
            _ = gate.update(channel: 1, channelRating: "18", programmeRating: nil, now: 0)
            var now = 0
            var tried: [Int] = []
            for (index, digit) in digits.enumerated() {
                now += gaps[index % gaps.count]
                _ = gate.enter(digit: digit, now: now) { _ in tried.append(now); return false }
            }
            for (index, time) in tried.enumerated() where index >= 5 && index % 5 == 0 {
                let k = index / 5
                let wait = min(30_000 << (k - 1), 3_600_000)
                #expect(time - tried[index - 1] >= wait, "attempt \(index + 1)")
            }
            #expect(gate.isLocked)
        }
    }
}

extension ParentalGate.State {
    var card: ParentalGate.Card? {
        if case .locked(let card) = self { card } else { nil }
    }
}
