import Foundation

/// Whether a channel is failing as the viewer sees it. A failure (from the
/// network, the decoder, or the presenter seeing no pictures) marks how many
/// segments had arrived; presenting a picture of a later segment ends it.
public final class FailureMark: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var arrivedCount = 0
    private var failedAfter: Int?

    /// Counts an arriving segment; its number.
    public func arrived() -> Int { lock.withLock { arrivedCount += 1; return arrivedCount } }

    public func failed() { lock.withLock { failedAfter = arrivedCount } }

    public var isFailing: Bool { lock.withLock { failedAfter != nil } }

    private var stallTold = false
    /// True once per playback: the stall has been told to the tuner.
    public func tellStall() -> Bool { lock.withLock { defer { stallTold = true }; return !stallTold } }

    /// True once, when a picture of `segment` shows the failure is over.
    public func recovers(segment: Int) -> Bool {
        lock.withLock {
            guard let mark = failedAfter, segment > mark else { return false }
            failedAfter = nil
            return true
        }
    }
}
