import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct CrashLoopBreakerTests {
    static let lineup = (1...5).map {
        LineupChannel(number: $0, name: "Channel \($0)", url: URL(string: "http://origin.test/\($0).m3u8")!, guideID: "ch\($0)")
    }

    /// A run that starts, tunes `key` and ends uncleanly (its state says `running`).
    func crashed(_ state: inout ZapperState, tuning key: String?, at now: Int) -> CrashLoopBreaker.Verdict {
        let verdict = CrashLoopBreaker.start(&state, now: now)
        state.tuning = key
        return verdict
    }

    @Test func aCleanExitIsNotCountedAndTheRunIsMarked() {
        var state = ZapperState(lastChannel: 2, lastChannelKey: "tvg:ch2")
        let verdict = CrashLoopBreaker.start(&state, now: 1_000)
        #expect(verdict == .init(recentExits: 0, offenders: [:], delaySeconds: 0))
        #expect(state.running && state.uncleanExits.isEmpty)
    }

    @Test func threeUncleanExitsOnOneChannelMakeItAnOffender() {
        var state = ZapperState()
        var verdicts: [CrashLoopBreaker.Verdict] = []
        for round in 0..<4 {
            verdicts.append(crashed(&state, tuning: "tvg:ch3", at: 1_000 + round * 20))
        }
        #expect(verdicts.map(\.recentExits) == [0, 1, 2, 3])
        #expect(verdicts.map(\.offenders) == [[:], [:], [:], ["tvg:ch3": 3]])
        #expect(verdicts.map(\.delaySeconds) == [0, 0, 0, 0])
        // The note of the last one names its channel, from `tuning` (saved as the tune starts).
        #expect(state.uncleanExits.map(\.channelKey) == ["tvg:ch3", "tvg:ch3", "tvg:ch3"])
        let start = CrashLoopBreaker.startChannel(preferred: 3, defaultChannel: nil, lineup: Self.lineup,
                                                  offenders: verdicts[3].offenders)
        #expect(start == 1)
        #expect(CrashLoopBreaker.startChannel(preferred: 3, defaultChannel: 4, lineup: Self.lineup, offenders: verdicts[3].offenders) == 4)
        #expect(CrashLoopBreaker.startChannel(preferred: 2, defaultChannel: 4, lineup: Self.lineup, offenders: verdicts[3].offenders) == 2)
    }

    @Test func exitsSpreadOverChannelsMakeNoOffenderButSlowTheStart() {
        var state = ZapperState()
        var delays: [Int] = []
        for round in 0..<12 {
            delays.append(crashed(&state, tuning: "tvg:ch\(1 + round % 5)", at: 5_000 + round).delaySeconds)
        }
        // Beyond three in ten minutes: 1 s, doubling, at most 30 s.
        #expect(delays == [0, 0, 0, 0, 1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func oldExitsAreForgottenAndTheRecordIsBounded() {
        var state = ZapperState()
        for round in 0..<40 { _ = crashed(&state, tuning: "tvg:ch1", at: 10_000 + round) }
        #expect(state.uncleanExits.count == CrashLoopBreaker.keptExits)
        // Eleven minutes later, after a clean run: nothing recent.
        state.running = false
        let later = CrashLoopBreaker.start(&state, now: 10_040 + 660)
        #expect(later.recentExits == 0 && later.offenders.isEmpty && later.delaySeconds == 0)
        // A clock set back by a minute still counts the exits as recent; a clock far off does not trap.
        var back = ZapperState()
        back.running = true
        back.uncleanExits = [UncleanExit(channelKey: "tvg:ch1", at: 70), UncleanExit(channelKey: "tvg:ch1", at: Int.max)]
        let verdict = CrashLoopBreaker.start(&back, now: 10)
        #expect(verdict.recentExits == 2 && back.uncleanExits.map(\.at) == [70, 10])
        var far = ZapperState()
        far.uncleanExits = [UncleanExit(channelKey: nil, at: Int.min)]
        #expect(CrashLoopBreaker.start(&far, now: Int.max).recentExits == 0)
    }

    @Test func everyChannelAnOffenderStartsWhereItWouldHave() {
        let offenders = Dictionary(uniqueKeysWithValues: Self.lineup.map { ($0.stateKey, 3) })
        #expect(CrashLoopBreaker.startChannel(preferred: 4, defaultChannel: 1, lineup: Self.lineup, offenders: offenders) == 4)
    }

    @Test func theRecordSurvivesTheStateFileAndABadRecordLosesNothingElse() throws {
        var state = ZapperState(lastChannel: 3, volume: 40)
        _ = crashed(&state, tuning: "tvg:ch3", at: 100)
        _ = crashed(&state, tuning: "tvg:ch3", at: 120)
        state.parental = ParentalLockout(wrongInARow: 2, lockouts: 1, openAt: 99_000)
        let decoded = try ZapperState.decode(try state.encoded())
        #expect(decoded == state)
        let hostile = #"{"lastChannel": 3, "volume": 40, "running": "yes", "uncleanExits": [{"at": "soon"}], "parental": 7}"#
        let forgiving = try ZapperState.decode(Data(hostile.utf8))
        #expect(forgiving.lastChannel == 3 && forgiving.volume == 40)
        #expect(!forgiving.running && forgiving.uncleanExits.isEmpty && forgiving.parental == nil)
    }

    /// Whatever the record says, `start` never traps and stays within its bounds.
    @Test func arbitraryRecordsNeverTrap() async {
        let exit = zip(Gen.int(in: Int.min...Int.max), Gen.int(in: 0...6)).map { at, channel in
            UncleanExit(channelKey: channel == 0 ? nil : "tvg:ch\(channel)", at: at)
        }
        await propertyCheck(count: 500, input: exit.array(of: 0...40), Gen.int(in: Int.min...Int.max)) { exits, now in
            var state = ZapperState()
            state.running = exits.count % 2 == 0
            state.uncleanExits = exits
            let verdict = CrashLoopBreaker.start(&state, now: now)
            #expect(state.uncleanExits.count <= CrashLoopBreaker.keptExits)
            #expect((0...CrashLoopBreaker.longestDelaySeconds).contains(verdict.delaySeconds))
            let start = CrashLoopBreaker.startChannel(preferred: 2, defaultChannel: 9, lineup: Self.lineup, offenders: verdict.offenders)
            #expect((1...5).contains(start))
        }
    }
}

@Suite struct ParentalLockoutTests {
    func lockedOut(at now: Int) -> ParentalGate {
        var gate = ParentalGate(policy: .init(maxAge: 12))
        _ = gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: now)
        for _ in 0..<5 { _ = "0000".flatMap { gate.enter(digit: Int(String($0))!, now: now) { _ in false } } }
        return gate
    }

    /// Five wrong PINs, a restart 10 s later (the monotonic clock starts again at 0): entry is still
    /// locked for the 20 s that are left, and the next lockout is the doubled one.
    @Test func aLockoutOutlastsARestart() throws {
        let saved = lockedOut(at: 50_000).lockout(now: 50_000, wallNow: 1_000_000)
        #expect(saved == ParentalLockout(wrongInARow: 0, lockouts: 1, openAt: 1_030_000))
        var gate = ParentalGate(policy: .init(maxAge: 12))
        gate.restore(saved, now: 0, wallNow: 1_010_000)
        _ = gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0)
        #expect(try #require(gate.state(now: 0).card).lockoutSeconds == 20)
        #expect(gate.enter(digit: 4, now: 19_999) { _ in true }.isEmpty)
        for _ in 0..<4 { _ = "0000".flatMap { gate.enter(digit: Int(String($0))!, now: 20_000) { _ in false } } }
        let events = "0000".flatMap { gate.enter(digit: Int(String($0))!, now: 20_000) { _ in false } }
        #expect(events == [.pinRejected(channel: 5, triesLeft: 0, lockoutSeconds: 60)])
    }

    @Test func wrongTriesCarryOverAndHostileValuesAreClamped() throws {
        var gate = ParentalGate(policy: .init(maxAge: 12))
        gate.restore(ParentalLockout(wrongInARow: 3, lockouts: 0, openAt: nil), now: 0, wallNow: 0)
        _ = gate.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0)
        // Three wrong before the restart: the second wrong one after it locks entry.
        #expect("0000".flatMap { gate.enter(digit: Int(String($0))!, now: 0) { _ in false } }
            == [.pinRejected(channel: 5, triesLeft: 1, lockoutSeconds: nil)])
        #expect("0000".flatMap { gate.enter(digit: Int(String($0))!, now: 0) { _ in false } }
            == [.pinRejected(channel: 5, triesLeft: 0, lockoutSeconds: 30)])
        // A clock set back a year: locked for at most the longest lockout, not a year.
        var back = ParentalGate(policy: .init(maxAge: 12))
        back.restore(ParentalLockout(wrongInARow: Int.max, lockouts: Int.min, openAt: Int.max), now: 0, wallNow: Int.min)
        _ = back.update(channel: 5, channelRating: "18", programmeRating: nil, now: 0)
        #expect(try #require(back.state(now: 0).card).lockoutSeconds == nil)
        back.restore(ParentalLockout(wrongInARow: 99, lockouts: 99, openAt: 365 * 86_400_000), now: 0, wallNow: 0)
        #expect(try #require(back.state(now: 0).card).lockoutSeconds == ParentalGate.longestLockoutMs / 1000)
        // A lockout that ended while the box was off is over.
        back.restore(ParentalLockout(wrongInARow: 0, lockouts: 1, openAt: 5_000), now: 0, wallNow: 6_000)
        #expect(try #require(back.state(now: 0).card).lockoutSeconds == nil)
    }
}
