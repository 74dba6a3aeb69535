import Foundation

/// The hand-over between `GuideReader.feed` (async callers) and the parser's
/// thread: chunks in order, a byte limit that makes feeders wait (suspended,
/// not blocking a thread), and the parse's result for `finish`.
final class ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let limit: Int
    // All below only under `condition`.
    private var chunks: [[UInt8]] = []
    private var head = 0
    private var queuedBytes = 0
    private var closed = false
    private var cancelled = false
    private var outcome: Result<GuideDocument, GuideReadError>?
    private var spaceWaiters: [CheckedContinuation<Void, Never>] = []
    private var resultWaiters: [CheckedContinuation<Result<GuideDocument, GuideReadError>, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Queues a chunk, then waits while more than `limit` bytes are queued and the parser still runs.
    func put(_ chunk: [UInt8]) async {
        guard !chunk.isEmpty else { return }
        let mustWait: Bool = condition.withLock {
            guard outcome == nil, !closed, !cancelled else { return false }
            chunks.append(chunk)
            queuedBytes += chunk.count
            condition.broadcast()
            return queuedBytes > limit
        }
        guard mustWait else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = condition.withLock {
                if queuedBytes <= limit || outcome != nil || cancelled { return true }
                spaceWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The parser's thread: the next chunk, waiting for one; `nil` after `close` and the last chunk.
    func take() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count, !closed, !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        chunks[head] = []
        head += 1
        if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        queuedBytes -= chunk.count
        if queuedBytes <= limit { resumeSpaceWaiters() }
        return chunk
    }

    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
            resumeSpaceWaiters()
        }
    }

    /// The parser's thread, at its end.
    func parserFinished(_ result: Result<GuideDocument, GuideReadError>) {
        let waiters = condition.withLock {
            outcome = result
            chunks = []
            head = 0
            queuedBytes = 0
            resumeSpaceWaiters()
            defer { resultWaiters = [] }
            return resultWaiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Bytes waiting for the parser.
    var waitingBytes: Int { condition.withLock { queuedBytes } }

    /// The parse's error, once it has failed.
    var failure: GuideReadError? {
        condition.withLock {
            if case .failure(let error)? = outcome { return error }
            return nil
        }
    }

    /// Waits for the parser's thread to end.
    func result() async -> Result<GuideDocument, GuideReadError> {
        await withCheckedContinuation { continuation in
            let done: Result<GuideDocument, GuideReadError>? = condition.withLock {
                if let outcome { return outcome }
                resultWaiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Under the lock.
    private func resumeSpaceWaiters() {
        let waiters = spaceWaiters
        spaceWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
