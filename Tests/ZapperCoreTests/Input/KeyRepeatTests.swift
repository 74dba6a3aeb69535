import PropertyBased
import Testing
@testable import ZapperCore

/// The times of the repeats while a key is held from 0 to `until`, ticking punctually.
func repeatTimes(until: Int, action: Action = .channelUp) -> [Int] {
    var keyRepeat = KeyRepeat()
    keyRepeat.press(key: "KEY_CHANNELUP", action: action, now: 0)
    var times: [Int] = []
    while let due = keyRepeat.nextDeadline, due <= until {
        if keyRepeat.tick(now: due) != nil { times.append(due) }
    }
    return times
}

@Suite struct KeyRepeatTests {
    @Test func repeatsAfterADelayThenSpeedsUp() {
        let times = repeatTimes(until: 4_000)
        #expect(times.first == 400)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.first == 200)
        #expect(zip(gaps.dropFirst(), gaps).allSatisfy { $0 <= $1 })
        #expect(gaps.last == 60)
        // Full speed once held about 2 s.
        let late = zip(times.dropFirst(), gaps).filter { $0.0 > 2_100 }
        #expect(!late.isEmpty && late.allSatisfy { $0.1 == 60 })
    }

    @Test func onlyRepeatableActionsRepeat() {
        #expect(repeatTimes(until: 3_000, action: .ok).isEmpty)
        #expect(repeatTimes(until: 3_000, action: .digit(4)).isEmpty)
        #expect(!repeatTimes(until: 3_000, action: .volumeDown).isEmpty)
    }

    @Test func releaseStopsAndSaysWhetherItRepeated() {
        var keyRepeat = KeyRepeat()
        keyRepeat.press(key: "KEY_RIGHT", action: .right, now: 0)
        #expect(keyRepeat.tick(now: 399) == nil)
        #expect(keyRepeat.release(key: "KEY_LEFT", now: 300) == false)  // not the held key
        #expect(keyRepeat.release(key: "KEY_RIGHT", now: 350) == false)  // a plain press
        #expect(keyRepeat.nextDeadline == nil && keyRepeat.tick(now: 1_000) == nil)
        keyRepeat.press(key: "KEY_RIGHT", action: .right, now: 2_000)
        #expect(keyRepeat.tick(now: 2_400) == .right)
        #expect(keyRepeat.release(key: "KEY_RIGHT", now: 2_500) == true)
        #expect(keyRepeat.nextDeadline == nil)
    }

    @Test func theLastKeyPressedWins() {
        var keyRepeat = KeyRepeat()
        keyRepeat.press(key: "KEY_RIGHT", action: .right, now: 0)
        keyRepeat.press(key: "KEY_VOLUMEUP", action: .volumeUp, now: 100)
        #expect(keyRepeat.tick(now: 450) == nil)
        #expect(keyRepeat.tick(now: 500) == .volumeUp)
        keyRepeat.press(key: "KEY_OK", action: .ok, now: 600)
        #expect(keyRepeat.nextDeadline == nil)
    }

    /// However late the ticks come, a held key yields at most one repeat per
    /// tick, never before its time, and never faster than `fastInterval`.
    @Test func lateTicksNeverBurst() async {
        await propertyCheck(input: Gen.int(in: 1...700).array(of: 1...60)) { gaps in
            var keyRepeat = KeyRepeat()
            keyRepeat.press(key: "BTN_TR", action: .channelUp, now: 0)
            var now = 0
            var times: [Int] = []
            for gap in gaps {
                now += gap
                let due = keyRepeat.nextDeadline!
                if let action = keyRepeat.tick(now: now) {
                    #expect(action == .channelUp && now >= due)
                    times.append(now)
                } else {
                    #expect(now < due)
                }
            }
            #expect(times.allSatisfy { $0 >= 400 })
            #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 >= 60 })
        }
    }
}
