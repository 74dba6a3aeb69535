import Foundation

/// An `InputStream` that asks a closure for its next chunk of bytes whenever
/// the reader has used up the last one: `XMLParser(stream:)` pulls from it a
/// few kilobytes at a time, so the document is never in memory whole.
///
/// The closure returns `nil` at the end; it may block (the parser runs on a
/// thread of its own). A failure it throws ends the stream; `failure` keeps it.
final class PullInputStream: InputStream {
    private let next: () throws -> [UInt8]?
    private var chunk: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private(set) var failure: Error?
    /// Bytes handed to the reader so far.
    private(set) var delivered = 0

    init(next: @escaping () throws -> [UInt8]?) {
        self.next = next
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !atEnd }
    override var streamStatus: Stream.Status { atEnd ? .atEnd : .open }
    override var streamError: Error? { failure }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        while position == chunk.count {
            if atEnd { return 0 }
            do {
                guard let more = try next() else {
                    atEnd = true
                    return 0
                }
                chunk = more
                position = 0
            } catch {
                failure = error
                atEnd = true
                return 0
            }
        }
        let count = min(length, chunk.count - position)
        chunk.withUnsafeBufferPointer { bytes in
            buffer.update(from: bytes.baseAddress! + position, count: count)
        }
        position += count
        delivered += count
        return count
    }
}
