import CFFmpeg
import Foundation

/// Bytes on their way from the segment fetcher to the demuxer. The fetcher
/// appends; libavformat's read callback takes, blocking on the demux thread
/// (never on Swift's cooperative pool) until bytes come, the stream ends, or
/// the queue is cancelled by a tune change.
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

    /// libavformat's read: bytes copied, AVERROR_EOF at the end, AVERROR_EXIT when cancelled.
    func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished && !cancelled {
            condition.wait()
        }
        if cancelled { return zapper_averror_exit() }
        guard let chunk = chunks.first else { return zapper_averror_eof() }
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
        return Int32(count)
    }
}
