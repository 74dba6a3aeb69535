import Foundation
import ZapperCore

/// Decoded pictures between a decode thread and the frame loop (`DuePictures`
/// under a lock of its own): the decode thread waits for room, the frame loop
/// takes what is due. `abort` empties it and refuses every later picture.
final class PictureQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var due: DuePictures
    private var aborted = false

    init(maxCount: Int, maxBytes: Int, minCount: Int = 1) {
        due = DuePictures(maxCount: maxCount, maxBytes: maxBytes, minCount: minCount)
    }

    /// Queues `picture`, waiting while the queue is full; false once aborted. While full,
    /// `dropsOldest` is asked (again at each `wake`): true drops the oldest picture instead of waiting.
    func push(_ picture: TimedPicture, dropsOldest: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while due.isFull && !aborted {
            if dropsOldest() {
                due.removeFirst()
                break
            }
            condition.wait()
        }
        guard !aborted else { return false }
        due.append(picture)
        return true
    }

    /// The newest picture due at `time` (`DuePictures.take`).
    func take(at time: Double?) -> TimedPicture? {
        condition.lock()
        defer { condition.unlock() }
        let taken = due.take(at: time)
        if taken != nil { condition.broadcast() }
        return taken
    }

    /// At least `count` pictures may wait from now on (`DuePictures.keepAtLeast`).
    func keepAtLeast(_ count: Int) { condition.withLock { due.keepAtLeast(count) } }

    /// Wakes a waiting decode thread to ask `dropsOldest` again.
    func wake() { condition.withLock { condition.broadcast() } }

    func abort() {
        condition.lock()
        aborted = true
        due.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
