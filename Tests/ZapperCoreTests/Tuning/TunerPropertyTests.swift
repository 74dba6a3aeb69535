import PropertyBased
import Testing
@testable import ZapperCore

/// Drives a `Tuner` and checks, call by call, the promises it makes about
/// tunes, cards and completions, from its effects alone.
struct TunerChecker {
    var tuner: Tuner
    var now = 0
    /// Started tunes that have not ended: serial → (channel, a lower bound of its start time).
    var running: [Int: (channel: Int, earliestStart: Int)] = [:]
    var ended: Set<Int> = []
    var openCard: Int?
    var failures: [String] = []
    /// The channel whose first frame was presented last, and whether it still plays
    /// (the player stops it when a tune of another channel starts).
    var onScreen: (channel: Int, playing: Bool)?

    /// The source each running tune plays from.
    var sources: [Int: Int] = [:]

    init(channels: [Int], start: Int, sources: [Int: Int] = [:]) {
        tuner = Tuner(channels: channels, start: start, sources: sources)
    }

    mutating func check(_ condition: Bool, _ what: String) {
        if !condition { failures.append("t=\(now): \(what)") }
    }

    /// The running tune's serial, if any.
    var runningSerial: Int? { running.keys.first }

    /// Timers due by `time` fire before `input` in one call; the checker lets
    /// them fire in a `.tick` of their own first (the same thing, by contract),
    /// so that it knows the target each press starts from. `.tick`s with
    /// timers long overdue are sent as they are.
    mutating func send(_ input: TunerInput, at time: Int) {
        if input != .tick, let due = tuner.nextDeadline, due <= time { deliver(.tick, at: time) }
        deliver(input, at: time)
    }

    mutating func deliver(_ input: TunerInput, at time: Int) {
        let before = now
        let targetBefore = tuner.view.target
        now = time
        let effects = tuner.handle(input, now: time)
        for (index, effect) in effects.enumerated() {
            let previous = index > 0 ? effects[index - 1] : nil
            switch effect {
            case .startTune(let channel, let serial, let reason, let source):
                check((0..<tuner.sourceCount(of: channel)).contains(source), "tune of \(channel) from source \(source)")
                check(reason != .failover || effects[..<index].contains { if case .sourceFailover(channel, _, source, _) = $0 { true } else { false } },
                      "a failover tune of \(channel) without its source-failover before it")
                sources[serial] = source
                check(running.isEmpty, "\(input): tune \(serial) started while \(running.keys) runs")
                check(!ended.contains(serial), "serial \(serial) reused")
                // Without a card only the channel on screen, tuned again after a tune away was cancelled.
                check(openCard == channel || (openCard == nil && tuner.view.tuned == channel),
                      "tune of \(channel) started without its card")
                running[serial] = (channel, before)
                if let shown = onScreen, shown.channel != channel { onScreen = (shown.channel, false) }
            case .cancelTune(let serial):
                check(running[serial] != nil, "cancel of \(serial), which is not running")
                // A source given up by the watchdog: not before its time.
                let next = effects[(index + 1)...].first { if case .interstitialShown = $0 { false } else { true } }
                if case .failed(serial, _) = input {} else if next?.isSourceFailover == true {
                    let start = running[serial]?.earliestStart ?? .max
                    check(time >= start + min(tuner.settings.watchdog, tuner.settings.sourceWatchdog), "timeout of \(serial) before the watchdog")
                }
                end(serial)
            case .presented(let channel, let serial, _):
                check(input == .tuneSucceeded(serial: serial), "presented \(serial) on \(input)")
                check(running[serial]?.channel == channel, "presented \(serial) which is not running for \(channel)")
                onScreen = (channel, true)
                check(tuner.source(of: channel) == sources[serial], "\(channel) played from \(String(describing: sources[serial])) but remembers \(tuner.source(of: channel))")
                end(serial)
            case .loadFailed(let channel, let serial, _):
                check(running[serial]?.channel == channel, "failure of \(serial) which is not running for \(channel)")
                if case .failed(serial, _) = input {} else {
                    let start = running[serial]?.earliestStart ?? .max
                    check(time >= start + min(tuner.settings.watchdog, tuner.settings.sourceWatchdog), "timeout of \(serial) before the watchdog")
                }
                end(serial)
            case let .sourceFailover(channel, from, to, _):
                let count = tuner.sourceCount(of: channel)
                check(count > 1 && to == (from + 1) % count, "failover of \(channel) from \(from) to \(to) of \(count)")
                // The failed source's tune cancelled before it (its card between), and not failed: the channel has not.
                if case .cancelTune(let serial)? = effects[..<index].last(where: { if case .interstitialShown = $0 { false } else { true } }) {
                    check(!effects.contains { if case .loadFailed(_, serial, _) = $0 { true } else { false } },
                          "failover of \(channel) beside the load-failed of \(serial): \(effects)")
                } else {
                    check(false, "failover of \(channel) after \(effects[..<index])")
                }
                check(openCard == channel, "failover of \(channel) without its card")
            case .interstitialShown(let channel):
                check(openCard == nil, "card \(channel) shown over card \(String(describing: openCard))")
                openCard = channel
            case .interstitialDismissed(let channel, let result):
                check(openCard == channel, "card \(channel) dismissed but \(String(describing: openCard)) is up")
                openCard = nil
                switch (result, previous) {
                case (.ok, .presented(channel, _, _)?), (.failed, .loadFailed(channel, _, _)?),
                     (.timeout, .loadFailed(channel, _, _)?):
                    break
                case (.superseded, _):
                    check(tuner.view.target != channel, "card \(channel) superseded but still the target")
                default:
                    check(false, "card \(channel) dismissed \(result) after \(String(describing: previous))")
                }
            }
        }
        let view = tuner.view
        check(running.count <= 1, "\(running.count) tunes running")
        if let serial = runningSerial {
            check(running[serial]?.channel == view.target, "the running tune is not for the target")
            check(openCard == view.target || (openCard == nil && view.tuned == view.target), "a tune runs without its card")
        }
        if let openCard {
            check(openCard == view.target, "the card shows \(openCard), the target is \(view.target)")
            let missingNumber = view.card.map { !tuner.channels.contains($0.channel) } ?? false
            check((view.card?.channel == openCard && view.card?.state == .loading) || missingNumber,
                  "card \(openCard) is up but the view shows \(String(describing: view.card))")
        }
        if case .flip(let delta, _) = input {
            let channels = tuner.channels
            let count = channels.count
            let expected = channels[((channels.firstIndex(of: targetBefore)! + delta) % count + count) % count]
            check(view.target == expected, "flip \(delta) from \(targetBefore) went to \(view.target)")
            check(view.target == view.tuned || openCard == view.target, "flip to \(view.target) without its card")
        }
        if case .select(let number) = input {
            let expected = tuner.channels.contains(number) ? number : targetBefore
            check(view.target == expected, "select \(number) from \(targetBefore) went to \(view.target)")
        }
    }

    mutating func end(_ serial: Int) {
        running[serial] = nil
        ended.insert(serial)
    }

    /// Lets go of every key, commits any number entry, lets time pass until
    /// the target's tune runs, completes it, and lets every timer run out.
    /// Returns the target the viewer asked for.
    mutating func settle() -> Int {
        send(.released, at: now + 1)
        if tuner.view.digits != nil { send(.ok, at: now + 1) }
        let target = tuner.view.target
        // (An error card may be up for the channel on screen: one tuned again after coming back to it.)
        for _ in 0..<100 where tuner.view.tuned != target || runningSerial != nil || tuner.view.card != nil {
            if let serial = runningSerial {
                send(.tuneSucceeded(serial: serial), at: now + 1)
            } else {
                send(.tick, at: max(now + 1, tuner.nextDeadline ?? now + 1))
            }
        }
        for _ in 0..<100 {
            guard let due = tuner.nextDeadline else { break }
            send(.tick, at: max(now, due))
        }
        check(tuner.nextDeadline == nil, "timers still pending after settling")
        check(onScreen.map { $0.channel == target && $0.playing } ?? false, "\(String(describing: onScreen)) on screen, \(target) asked for")
        return target
    }
}

/// One random step of a viewer, an engine and a clock, decoded from a number.
func tunerStep(_ code: Int, checker: TunerChecker) -> (TunerInput, Int) {
    let steps = [0, 0, 10, 60, 150, 299, 300, 700, 1_499, 1_500, 2_000, 4_000, 9_999, 11_000]
    let gap = steps[(code / 16) % steps.count]
    let pick = code / 300
    let input: TunerInput
    switch code % 16 {
    case 0: input = .flip(delta: 1, held: false)
    case 1: input = .flip(delta: 1, held: true)
    case 2: input = .flip(delta: -1, held: false)
    case 3: input = .flip(delta: -1, held: true)
    case 4: input = .flip(delta: pick % 7 - 3, held: pick % 2 == 0)
    case 5: input = .released
    case 6, 7: input = .digit(pick % 10)
    case 8: input = .ok
    case 9: input = .lastChannel
    case 10: input = .retry
    case 11: input = checker.runningSerial.map { .tuneSucceeded(serial: $0) } ?? .tick
    case 12: input = checker.runningSerial.map { .failed(serial: $0, PlaybackFailure(.other, "boom")) } ?? .tick
    case 13:
        // News about some serial, most likely an old one.
        let serial = 1 + pick % (checker.ended.count + 2)
        input = pick % 2 == 0 ? .tuneSucceeded(serial: serial) : .failed(serial: serial, PlaybackFailure(.other, "stale"))
    case 14: input = .info
    case 15 where pick % 2 == 0: input = .select(pick % 140)
    default: input = .tick
    }
    return (input, checker.now + gap)
}

@Suite struct TunerPropertyTests {
    static let lineups = Gen.int(in: 1...130).array(of: 1...9)
    static let sequences = Gen.int(in: 0...1_000_000).array(of: 0...80)

    /// Whatever is pressed, reported and however time passes: at most one tune
    /// runs and always for the target, each tune ends exactly once, a card
    /// goes only at its own tune's end (or when the target moves on), every
    /// press moves the target at once with its card, and once things settle
    /// the last target is on screen.
    @Test func flippingKeepsItsPromises() async {
        await propertyCheck(count: 500, input: Self.lineups, Self.sequences) { lineup, codes in
            // Some channels with two or three sources.
            var checker = TunerChecker(channels: lineup, start: lineup[codes.count % lineup.count],
                                       sources: Dictionary(lineup.map { ($0, 1 + $0 % 3) }, uniquingKeysWith: { a, _ in a }))
            for code in codes {
                let (input, time) = tunerStep(code, checker: checker)
                checker.send(input, at: time)
            }
            let target = checker.settle()
            #expect(checker.failures == [])
            #expect(checker.tuner.view.tuned == target)
            #expect(checker.tuner.view.card == nil)
            #expect(checker.running.isEmpty && checker.openCard == nil)
        }
    }

    /// A stream that never answers: the watchdog fails every attempt, retries
    /// follow the backoff, and flipping away still works at any moment.
    @Test func aDeadChannelNeverBlocksFlipping() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...60_000).array(of: 1...20)) { gaps in
            var checker = TunerChecker(channels: [1, 2, 3], start: 1)
            for gap in gaps { checker.send(.tick, at: checker.now + gap) }
            checker.send(.flip(delta: 1, held: false), at: checker.now + 1)
            #expect(checker.tuner.view.card == TunerCard(channel: 2, state: .loading))
            #expect(checker.runningSerial != nil)
            #expect(checker.failures == [])
        }
    }
}
