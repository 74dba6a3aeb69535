import Testing
import ZapperCore

/// Whether one decoding thread keeps up: a window of pictures' decoding time against their play time.
struct DecodeLoadTests {
    /// `count` pictures at 30 fps from `start`, each decoded in `busy` seconds; the judgements made.
    static func judge(_ load: inout DecodeLoad, count: Int, busy: Double, start: Double = 0) -> [Bool] {
        (0..<count).compactMap { index in
            let tooSlow = load.record(busy: busy, time: start + Double(index) / 30)
            return (index + 1) % load.window == 0 ? tooSlow : (tooSlow ? true : nil)
        }
    }

    @Test func aWindowIsJudgedByTheShareOfItsPlayTimeSpentDecoding() {
        var load = DecodeLoad(window: 60, busyShare: 0.5)
        #expect(Self.judge(&load, count: 120, busy: 0.010) == [false, false])  // 30 %
        #expect(Self.judge(&load, count: 60, busy: 0.020, start: 4) == [true])  // 60 %
        #expect(Self.judge(&load, count: 59, busy: 0.030, start: 6).isEmpty, "no judgement before a window closes")
    }

    @Test func aNewTimelineOrAJumpStartsTheWindowAgain() {
        var load = DecodeLoad(window: 4, busyShare: 0.5)
        // Back in time at 2 (a new timeline), forward by three seconds at 5: each starts a new window.
        let judged = [10, 10.033, 2, 2.033, 5, 5.033, 5.067, 5.1].map { load.record(busy: 1, time: $0) }
        #expect(judged == [false, false, false, false, false, false, false, true])
    }

    @Test func nonsenseIsNotCounted() {
        var load = DecodeLoad(window: 2, busyShare: .nan)
        #expect(load.busyShare == 0.5)
        let nonsense = [(-1.0, 1.0), (.infinity, 1), (.nan, 1)].map { load.record(busy: $0.0, time: $0.1) }
        let untimed = [load.record(busy: 1, time: nil), load.record(busy: 1, time: .infinity)]
        #expect(nonsense == [false, false, false] && untimed == [false, false])
        let idle = [load.record(busy: 0, time: 1), load.record(busy: 0, time: 1.033)]
        #expect(idle == [false, false], "no time spent: enough")
        #expect(DecodeLoad(window: -5).window == 2)
    }

    @Test func aClosedWindowTellsItsShare() {
        var load = DecodeLoad(window: 3, busyShare: 0.9)
        // 0.1 s of pictures each taking 0.02 s, then each taking 0.04 s.
        let shares = [(0.02, 1.0), (0.02, 1.033), (0.02, 1.067), (0.04, 1.1), (0.04, 1.133), (0.04, 1.167)]
            .map { load.closes(afterRecording: $0.0, time: $0.1) }
        #expect(shares.map { $0 == nil } == [true, true, false, true, true, false])
        #expect(abs((shares[2] ?? 0) - 0.6) < 0.02 && abs((shares[5] ?? 0) - 1.2) < 0.02, "\(shares)")
    }

    /// A decoder that fell behind before its window closed: the pictures it did decode tell how slow it was.
    @Test func anOpenWindowTellsItsShareSoFar() throws {
        var load = DecodeLoad(window: 60, busyShare: 0.5)
        #expect(load.openShare(atLeast: 1) == nil, "no pictures")
        _ = load.record(busy: 0.1, time: 1)
        #expect(load.openShare(atLeast: 1) == nil, "one picture spans no time")
        for index in 1..<6 { _ = load.record(busy: 0.1, time: 1 + Double(index) / 30) }
        #expect(load.openShare(atLeast: 7) == nil, "fewer pictures than asked")
        let share = try #require(load.openShare(atLeast: 6))
        #expect(abs(share - 3) < 0.05, "0.1 s for each 1/30 s: \(share)")
        #expect(load.openShare(atLeast: 6) == share, "asking leaves the window as it is")
        _ = load.record(busy: 0.1, time: 5)
        #expect(load.openShare(atLeast: 2) == nil, "a jump starts the window again")
    }
}
