/// Cuts an EXT-X-BYTERANGE out of a whole resource as its body streams in:
/// a server that ignores Range answers 200 with all of it, and only the
/// range is the segment.
public struct ByteRangeCut: Sendable {
    private let start: Int
    private let end: Int
    /// Bytes of the body seen so far.
    private var position = 0

    public init(_ range: HLSByteRange) {
        start = range.offset
        end = range.offset + range.length
    }

    /// The indices of the next `count` bytes of the body (0 is the chunk's
    /// first byte) that fall inside the range; empty when none do.
    public mutating func keep(count: Int) -> Range<Int> {
        let chunk = position..<(position + count)
        position += count
        let lower = max(chunk.lowerBound, start)
        let upper = min(chunk.upperBound, end)
        guard lower < upper else { return 0..<0 }
        return (lower - chunk.lowerBound)..<(upper - chunk.lowerBound)
    }

    /// Whether the whole range has gone by (the rest of the body is not needed).
    public var isComplete: Bool { position >= end }
}
