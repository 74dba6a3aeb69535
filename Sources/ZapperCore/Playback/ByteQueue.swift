import Foundation

/// Bytes on their way from the segment fetcher to the demuxer: the port
/// between the HLS client and the media engine. The fetcher appends as the
/// body streams in; the demuxer's read blocks on its own thread (never on
/// Swift's cooperative pool) until bytes come, the stream ends, or a tune
/// change cancels the queue.
public final class ByteQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var offset = 0
    private var finished = false
    private var cancelled = false
    /// Bytes handed to the demuxer so far.
    public private(set) var consumed = 0

    public init() {}

    public func append(_ data: Data) {
        guard !data.isEmpty else { return }
        condition.lock()
        chunks.append(data)
        condition.signal()
        condition.unlock()
    }

    /// No more bytes will come: reads drain what is left, then see the end.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes a blocked read and makes every read fail at once.
    public func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    public enum ReadResult: Equatable, Sendable {
        case bytes(Int)
        case end
        case cancelled
    }

    /// Copies up to `capacity` bytes, waiting for some unless the queue is
    /// finished (then `.end` once drained) or cancelled.
    public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished && !cancelled {
            condition.wait()
        }
        if cancelled { return .cancelled }
        guard let chunk = chunks.first else { return .end }
        let count = min(capacity, chunk.count - offset)
        chunk.withUnsafeBytes { raw in
            buffer.update(from: raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: count)
        }
        offset += count
        consumed += count
        if offset == chunk.count {
            chunks.removeFirst()
            offset = 0
        }
        return .bytes(count)
    }

    /// No more bytes will come (the body ended).
    public var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// A finished queue holding a copy of the bytes not yet read (this queue is untouched).
    public func snapshot() -> ByteQueue {
        condition.lock()
        var waiting = chunks
        if offset > 0, !waiting.isEmpty { waiting[0] = waiting[0].subdata(in: offset..<waiting[0].count) }
        condition.unlock()
        let copy = ByteQueue()
        copy.chunks = waiting
        copy.finished = true
        return copy
    }

    /// Bytes appended and not yet read.
    public var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return chunks.reduce(0) { $0 + $1.count } - offset
    }

    /// Everything appended so far, without consuming it (for a failover copy).
    public var appendedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return consumed + chunks.reduce(0) { $0 + $1.count } - offset
    }
}
