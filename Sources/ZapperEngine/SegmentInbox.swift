import Foundation
import ZapperCore
import ZapperHLS

/// The segments a live session has handed on (their bytes perhaps still arriving)
/// waiting for one decode thread: the channel's, or a separate audio rendition's.
/// Bounded by `SegmentLimits` (the session waits for room), or while it plays behind live by
/// its `TimeshiftBudget` (`keepBehindLive`); while the channel is a
/// warm neighbour only the newest `warmKeeps` are kept and nothing is handed out.
/// `stop` cancels every waiting body and the one being decoded.
final class SegmentInbox: @unchecked Sendable {
    struct Entry {
        let delivery: HLSSegmentDelivery
        /// The channel's count of segments arrived when this one came.
        let index: Int
    }

    private let condition = NSCondition()
    private var waiting: [Entry] = []
    private var current: ByteQueue?
    private var stopped = false
    private let warmKeeps: Int
    /// Set once the channel is paused or played behind live: what may wait then.
    private var budget: TimeshiftBudget?
    private let isWarm: @Sendable () -> Bool

    /// - Parameters:
    ///   - warmKeeps: the newest segments kept while warm.
    ///   - isWarm: whether the channel is (still) a warm neighbour; call `wake` when it stops being one.
    init(warmKeeps: Int, isWarm: @escaping @Sendable () -> Bool) {
        self.warmKeeps = max(warmKeeps, 1)
        self.isWarm = isWarm
    }

    /// Takes a segment; false (and its body cancelled) once stopped. `numbered` runs only for a segment taken.
    @discardableResult
    func receive(_ delivery: HLSSegmentDelivery, numbered: () -> Int = { 0 }) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else {
            delivery.bytes.cancel()
            return false
        }
        waiting.append(Entry(delivery: delivery, index: numbered()))
        if isWarm(), waiting.count > warmKeeps {
            let old = waiting.count - warmKeeps
            for entry in waiting.prefix(old) { entry.delivery.bytes.cancel() }
            waiting.removeFirst(old)
        }
        condition.broadcast()
        return true
    }

    /// The next segment to decode, waiting while there is none or the channel is warm; nil once stopped.
    func next() -> Entry? {
        condition.lock()
        defer { condition.unlock() }
        while (waiting.isEmpty || isWarm()) && !stopped { condition.wait() }
        guard !stopped else { return nil }
        let entry = waiting.removeFirst()
        current = entry.delivery.bytes
        return entry
    }

    /// While warm: waits for the newest segment to have arrived whole (or its head, `keptHead`)
    /// and be `wanted`; nil once stopped or promoted. (A body's end does not signal this inbox: it looks every 100 ms.)
    func newestWhole(where wanted: (HLSSegmentDelivery) -> Bool) -> HLSSegmentDelivery? {
        condition.lock()
        defer { condition.unlock() }
        func ready() -> HLSSegmentDelivery? {
            guard let newest = waiting.last?.delivery, newest.keptHead || newest.bytes.isFinished, wanted(newest) else { return nil }
            return newest
        }
        while !stopped && isWarm() {
            if let newest = ready() { return newest }
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
        }
        return nil
    }

    /// Whether the session may fetch another segment: a warm neighbour always may (it keeps only its newest).
    var hasRoom: Bool {
        condition.withLock {
            let (seconds, bytes) = (waiting.reduce(0) { $0 + $1.delivery.duration }, waiting.reduce(0) { $0 + $1.delivery.bytes.appendedCount })
            if isWarm() { return true }
            if let budget { return budget.hasRoom(seconds: seconds, bytes: bytes) }
            return SegmentLimits.hasRoom(segments: waiting.count, seconds: seconds, bytes: bytes)
        }
    }

    /// Paused or behind live: segments go on coming while the decoder waits, up to `budget`.
    func keepBehindLive(_ budget: TimeshiftBudget) { condition.withLock { self.budget = budget } }

    /// Seconds of media waiting.
    var seconds: Double { condition.withLock { waiting.reduce(0) { $0 + $1.delivery.duration } } }

    var isStopped: Bool { condition.withLock { stopped } }

    /// Wakes the decode thread to look again (the channel was promoted).
    func wake() { condition.withLock { condition.broadcast() } }

    /// Cancels the waiting segments and the one being decoded; hands out nothing more.
    func stop() {
        condition.lock()
        stopped = true
        current?.cancel()
        for entry in waiting { entry.delivery.bytes.cancel() }
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
