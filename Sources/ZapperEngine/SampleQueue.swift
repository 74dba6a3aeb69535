import Foundation
import ZapperCore

/// Decoded sound between its decode thread (the channel's, or a separate audio
/// rendition's) and the audio thread: a `SampleRun` under a lock of its own,
/// bounded by `maxSeconds` (the decode thread waits for room). A `flush` starts
/// a new serial: a feed still pushing the old one's sound is refused and stops.
/// `abort` refuses everything after it.
final class SampleQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var run: SampleRun
    private var currentSerial = 0
    private var aborted = false
    private var lastTake: Double?
    private var firstPush: Double?
    let maxSeconds: Double
    let sampleRate: Int
    /// Called (outside the lock) when a take leaves the queue dry: the picture queue may stop waiting for room.
    private let ranDry: @Sendable () -> Void

    init(sampleRate: Int, maxSeconds: Double, ranDry: @escaping @Sendable () -> Void = {}) {
        run = SampleRun(sampleRate: sampleRate)
        self.sampleRate = run.sampleRate
        self.maxSeconds = maxSeconds
        self.ranDry = ranDry
    }

    /// The serial a feed's pushes must carry.
    var serial: Int { condition.withLock { currentSerial } }

    /// Queues a block decoded at timeline `time`, waiting while the queue is full. False once aborted,
    /// or when `serial` (nil: the channel's own stream, always current) is no longer the queue's.
    func push(_ block: [Int16], at time: Double, serial: Int? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        func wanted() -> Bool { !aborted && (serial == nil || serial == currentSerial) }
        while run.waitingSeconds >= maxSeconds && wanted() { condition.wait() }
        guard wanted() else { return false }
        run.append(block, at: time)
        if firstPush == nil, time.isFinite { firstPush = time }
        return true
    }

    /// The timeline time of the first sound queued (nil before any).
    var firstTime: Double? { condition.withLock { firstPush } }

    /// The timeline time the output took from last: what is heard about now (nil before any take).
    var heard: Double? { condition.withLock { lastTake } }

    /// `frames` stereo frames from timeline `time` (`SampleRun.take`).
    func take(frames: Int, from time: Double) -> AudioTake? {
        condition.lock()
        if time.isFinite { lastTake = time }
        let before = run.waitingFrames
        let taken = run.take(frames: frames, from: time)
        let dry = before > 0 && run.hasRunDry
        if run.waitingFrames != before { condition.broadcast() }
        condition.unlock()
        if dry { ranDry() }
        return taken
    }

    /// Sound came and all of it was taken.
    var hasRunDry: Bool { condition.withLock { run.hasRunDry } }
    var waitingSeconds: Double { condition.withLock { run.waitingSeconds } }

    /// Drops the waiting sound (another muxed language follows in the same stream).
    func removeAll() {
        condition.withLock {
            run.removeAll()
            condition.broadcast()
        }
    }

    /// Drops the waiting sound and starts a new serial for a new feed; returns it.
    func flush() -> Int {
        condition.withLock {
            run.removeAll(forgettingTime: true)
            currentSerial += 1
            condition.broadcast()
            return currentSerial
        }
    }

    /// Refuses every later push; with `keepingSound` what waits stays to be taken (a fade-out).
    func abort(keepingSound: Bool) {
        condition.withLock {
            aborted = true
            if !keepingSound { run.removeAll() }
            condition.broadcast()
        }
    }
}
