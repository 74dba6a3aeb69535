import Foundation
import Testing
import ZapperCore
@testable import ZapperEngine

/// The picture and sound queues between decode threads and their takers: each its own
/// lock; a full queue holds its decode thread until room is made, a flush or an abort.
struct PlaybackQueueTests {
    final class Picture: VideoPicture {
        let byteSize = 10
    }

    /// Runs `body` on a thread of its own (as a decode thread does); its result once it returns.
    final class Producer<Result: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result?
        init(_ body: @escaping @Sendable () -> Result) {
            Thread { [self] in
                result = body()
                done.signal()
            }.start()
        }
        /// Its result, or nil while it is still held `seconds` later.
        func wait(_ seconds: Double) -> Result? {
            done.wait(timeout: .now() + seconds) == .success ? result : nil
        }
    }

    static func picture(_ time: Double) -> TimedPicture { TimedPicture(time: time, picture: Picture(), segment: 0) }

    @Test func aFullPictureQueueHoldsItsDecoderUntilAPictureIsTaken() {
        let queue = PictureQueue(maxCount: 2, maxBytes: 1000)
        #expect(queue.push(Self.picture(0), dropsOldest: { false }))
        #expect(queue.push(Self.picture(1), dropsOldest: { false }))
        let third = Producer { queue.push(Self.picture(2), dropsOldest: { false }) }
        #expect(third.wait(0.2) == nil)
        #expect(queue.take(at: 0)?.time == 0)
        #expect(third.wait(10) == true)
        #expect(queue.take(at: 5)?.time == 2)
    }

    @Test func aFullPictureQueueDropsItsOldestWhenAskedToAtAWake() {
        let queue = PictureQueue(maxCount: 1, maxBytes: 1000)
        let dry = Flag()
        #expect(queue.push(Self.picture(0), dropsOldest: { dry.value }))
        let second = Producer { queue.push(Self.picture(1), dropsOldest: { dry.value }) }
        #expect(second.wait(0.2) == nil)
        dry.value = true
        queue.wake()
        #expect(second.wait(10) == true)
        // The oldest went to make room.
        #expect(queue.take(at: nil)?.time == 1)
    }

    @Test func anAbortFreesAWaitingDecoderAndRefusesMore() {
        let queue = PictureQueue(maxCount: 1, maxBytes: 1000)
        #expect(queue.push(Self.picture(0), dropsOldest: { false }))
        let held = Producer { queue.push(Self.picture(1), dropsOldest: { false }) }
        queue.abort()
        #expect(held.wait(10) == false)
        #expect(!queue.push(Self.picture(2), dropsOldest: { false }))
        #expect(queue.take(at: nil) == nil)
    }

    @Test func aFullSoundQueueHoldsItsDecoderAndAFlushRefusesTheOldFeed() {
        let woken = Flag()
        let queue = SampleQueue(sampleRate: 1000, maxSeconds: 0.1) { woken.value = true }
        let feed = queue.serial
        #expect(queue.push([Int16](repeating: 1, count: 200), at: 0, serial: feed))
        let held = Producer { queue.push([Int16](repeating: 2, count: 20), at: 0.1, serial: feed) }
        #expect(held.wait(0.2) == nil)
        // Taking makes room.
        #expect(queue.take(frames: 50, from: 0)?.samples.count == 100)
        #expect(held.wait(10) == true)
        // Another feed's serial: the old feed's pushes are refused, even one waiting for room.
        #expect(queue.push([Int16](repeating: 3, count: 200), at: 0.11, serial: feed))
        let stale = Producer { queue.push([Int16](repeating: 4, count: 20), at: 0.2, serial: feed) }
        let next = queue.flush()
        #expect(stale.wait(10) == false)
        #expect(next != feed)
        #expect(queue.waitingSeconds == 0)
        #expect(queue.push([Int16](repeating: 5, count: 20), at: 9, serial: next))
        // The channel's own stream (no serial) is always current.
        #expect(queue.push([Int16](repeating: 6, count: 20), at: 9.01))
        #expect(!woken.value)
        _ = queue.take(frames: 100, from: 9)
        #expect(woken.value)
        #expect(queue.hasRunDry)
    }

    @Test func anAbortKeepsTheSoundForAFadeOutOnlyWhenAsked() {
        let kept = SampleQueue(sampleRate: 1000, maxSeconds: 1)
        #expect(kept.push([Int16](repeating: 1, count: 20), at: 0))
        kept.abort(keepingSound: true)
        #expect(!kept.push([Int16](repeating: 1, count: 20), at: 0.01))
        #expect(kept.take(frames: 10, from: 0)?.samples.count == 20)
        let dropped = SampleQueue(sampleRate: 1000, maxSeconds: 1)
        #expect(dropped.push([Int16](repeating: 1, count: 20), at: 0))
        dropped.abort(keepingSound: false)
        #expect(dropped.take(frames: 10, from: 0) == nil)
    }
}

/// A flag shared with a closure on another thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
