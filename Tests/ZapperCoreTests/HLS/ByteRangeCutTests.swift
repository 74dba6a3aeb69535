import Testing
import ZapperCore

@Suite struct ByteRangeCutTests {
    /// Bytes 10..<25 of a 40-byte body arriving in chunks of 7: exactly those are kept, and
    /// the cut knows it is done after the chunk that holds byte 24.
    @Test func keepsOnlyTheRangeWhateverTheChunks() {
        let body = Array(UInt8(0)..<40)
        for size in [1, 7, 15, 40] {
            var cut = ByteRangeCut(HLSByteRange(length: 15, offset: 10))
            var kept: [UInt8] = []
            var chunksRead = 0
            for start in stride(from: 0, to: body.count, by: size) where !cut.isComplete {
                let chunk = body[start..<min(start + size, body.count)]
                let range = cut.keep(count: chunk.count)
                kept += chunk.dropFirst(range.lowerBound).prefix(range.count)
                chunksRead += 1
            }
            #expect(kept == Array(10..<25), "chunks of \(size)")
            #expect(cut.isComplete)
            #expect(chunksRead == (25 + size - 1) / size, "chunks of \(size): reads no further than the range")
        }
        var short = ByteRangeCut(HLSByteRange(length: 15, offset: 10))
        #expect(short.keep(count: 20) == 10..<20)
        #expect(!short.isComplete)
    }
}
