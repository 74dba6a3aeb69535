import Testing
@testable import ZapperMedia

/// `TeletextPES`'s bytes by the rules of EN 300 472 and ETS 300 706.
struct TeletextPESTests {
    @Test func everyPESFillsOneTSPacketBehindItsHeader() {
        for payload in TeletextPES.page(0x888, rows: ["HELLO"]) + TeletextPES.page(0x100, rows: []) {
            #expect(payload.count + 45 == 184, "the decoder takes whole TS packets: \(payload.count)")
            #expect(payload[0] == TeletextPES.dataIdentifier)
        }
    }

    @Test func hammingCodesCorrectOneBitAndParityIsOdd() {
        // Every code word is at least 4 bits from every other (so one flipped bit is corrected, two are seen).
        let codes = (0..<16).map(TeletextPES.hamming)
        for a in 0..<16 { for b in 0..<16 where a != b { #expect((codes[a] ^ codes[b]).nonzeroBitCount >= 4) } }
        for character in UInt8(0x20)..<0x7F { #expect(TeletextPES.parity(character).nonzeroBitCount % 2 == 1) }
        #expect(TeletextPES.reversed(0b1000_0001) == 0b1000_0001 && TeletextPES.reversed(0b0000_0011) == 0b1100_0000)
    }

    @Test func theRowIsBoxedAndCentred() {
        let row = TeletextPES.rowPacket(magazine: 0, row: 23, text: "ABCD").dropFirst(2).map { $0 & 0x7F }
        let start = (40 - 9) / 2
        #expect(Array(row[start..<start + 9]) == [0x07, 0x0B, 0x0B, 0x41, 0x42, 0x43, 0x44, 0x0A, 0x0A])
        #expect(row.count == 40 && row.prefix(start).allSatisfy { $0 == 0x20 })
    }
}
