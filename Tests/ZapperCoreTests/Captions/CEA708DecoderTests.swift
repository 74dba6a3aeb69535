import PropertyBased
import Testing
@testable import ZapperCore

/// CEA-708 service decoding from hand-made DTVCC packets: packets across pictures, service
/// blocks, windows shown, hidden and toggled (pop-on), a window scrolling (roll-up), text
/// painted into a shown window, and hostile bytes.
@Suite struct CEA708DecoderTests {
    /// `data` for `service` as one DTVCC packet's triplets (blocks of at most 31 bytes).
    static func triplets(_ data: [UInt8], service: Int = 1, sequence: Int = 0) -> [UInt8] {
        var body: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 31) {
            let block = data[start..<min(start + 31, data.count)]
            body += [UInt8(service << 5) | UInt8(block.count)] + block
        }
        if body.count % 2 == 0 { body.append(0) }
        let header = UInt8(sequence << 6) | UInt8((1 + body.count) / 2)
        return packet([header] + body)
    }

    /// A packet's bytes (header first, an even count) as triplets: type 3 first, then type 2.
    static func packet(_ bytes: [UInt8]) -> [UInt8] {
        var triplets: [UInt8] = []
        for start in stride(from: 0, to: bytes.count - 1, by: 2) {
            let type: UInt8 = start == 0 ? 0xFF : 0xFE
            triplets += [type, bytes[start], bytes[start + 1]]
        }
        return triplets
    }

    /// DefineWindow `window` with `rows` and 32 columns, visible or not.
    static func define(_ window: Int, rows: Int, visible: Bool, vertical: UInt8 = 74) -> [UInt8] {
        [0x98 + UInt8(window), visible ? 0x20 : 0x00, vertical, 0x68, 0x70 | UInt8(rows - 1), 31, 0x09]
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test func popOnWritesHiddenThenShowsAndHides() {
        var decoder = CEA708Decoder(service: 1)
        // Loaded hidden: nothing on screen.
        #expect(decoder.decode(Self.triplets(Self.define(0, rows: 2, visible: false) + Self.text("Hello") + [0x0D] + Self.text("there"))) == nil)
        #expect(decoder.decode(Self.triplets([0x89, 0x01])) == ["Hello", "there"])  // DisplayWindows
        // The next caption loads into window 1 while window 0 shows; then they swap (ToggleWindows).
        #expect(decoder.decode(Self.triplets(Self.define(1, rows: 1, visible: false) + Self.text("Second"))) == nil)
        #expect(decoder.decode(Self.triplets([0x8B, 0x03])) == ["Second"])
        #expect(decoder.decode(Self.triplets([0x8A, 0x02])) == [])  // HideWindows
    }

    @Test func aPacketCanSpanPicturesAndAnotherServiceIsNotShown() {
        var decoder = CEA708Decoder(service: 1)
        let packet = Self.triplets(Self.define(0, rows: 1, visible: true) + Self.text("Across three pictures"))
        let thirds = stride(from: 0, to: packet.count, by: 12).map { Array(packet[$0..<min($0 + 12, packet.count)]) }
        var shown: [[String]] = []
        for picture in thirds {
            // 608 pairs and 708 padding beside the packet change nothing.
            if let lines = decoder.decode([0xFC, 0x94, 0x2C] + picture + [0xFA, 0x00, 0x00]) { shown.append(lines) }
        }
        #expect(shown.last == ["Across three pictures"])
        var other = CEA708Decoder(service: 2)
        #expect(other.decode(packet) == nil)
    }

    @Test func rollUpScrollsAtEachCarriageReturn() {
        var decoder = CEA708Decoder(service: 1)
        _ = decoder.decode(Self.triplets(Self.define(0, rows: 2, visible: true) + Self.text("one")))
        #expect(decoder.decode(Self.triplets([0x0D] + Self.text("two"))) == ["one", "two"])
        #expect(decoder.decode(Self.triplets([0x0D] + Self.text("three"))) == ["two", "three"])
        // Backspace, then a horizontal carriage return clears the row.
        #expect(decoder.decode(Self.triplets([0x08])) == ["two", "thre"])
        #expect(decoder.decode(Self.triplets([0x0E])) == ["two"])
        // Form feed: the window empties.
        #expect(decoder.decode(Self.triplets([0x0C])) == [])
    }

    @Test func paintOnTextShowsAsItComesAndThePenMoves() {
        var decoder = CEA708Decoder(service: 1)
        #expect(decoder.decode(Self.triplets(Self.define(3, rows: 3, visible: true) + Self.text("Pa"))) == ["Pa"])
        #expect(decoder.decode(Self.triplets(Self.text("int"))) == ["Paint"])
        // SetPenLocation row 2 column 4.
        #expect(decoder.decode(Self.triplets([0x92, 0x02, 0x04] + Self.text("low"))) == ["Paint", "    low"])
        // Characters past the last column overwrite it.
        #expect(decoder.decode(Self.triplets([0x92, 0x00, 31] + Self.text("XYZ"))) == ["Paint" + String(repeating: " ", count: 26) + "Z", "    low"])
        // DeleteWindows: gone.
        #expect(decoder.decode(Self.triplets([0x8C, 0x08])) == [])
    }

    @Test func windowsAreOrderedTopToBottomAndCharactersMapped() {
        var decoder = CEA708Decoder(service: 1)
        let lower = Self.define(0, rows: 1, visible: true, vertical: 70) + [0x7F] + Self.text(" la ") + [0xE9, 0x10, 0x35, 0x10, 0x39]
        let upper = Self.define(1, rows: 1, visible: true, vertical: 5) + Self.text("top")
        #expect(decoder.decode(Self.triplets(lower + upper)) == ["top", "\u{266A} la é•™"])
    }

    /// A command cut at its block's end waits for the next block of the service.
    @Test func aCommandSplitAcrossBlocksIsReadWhole() {
        var decoder = CEA708Decoder(service: 1)
        let define = Self.define(0, rows: 1, visible: true)
        var body: [UInt8] = [0x20 | 3]
        body += define.prefix(3)
        body += [0x20 | 6]
        body += define.dropFirst(3)
        body += Self.text("ok")
        if body.count % 2 == 0 { body.append(0) }
        let header = UInt8((1 + body.count) / 2)
        #expect(decoder.decode(Self.packet([header] + body)) == ["ok"])
    }

    @Test func theReaderHandsOverPacketsAndBlocks() {
        var reader = DTVCCPacketReader()
        // Continuation data before any start is passed over.
        #expect(reader.read([0xFE, 0x21, 0x41]).isEmpty)
        let packets = reader.read(Self.triplets(Self.text("AB"), service: 2))
        #expect(packets.count == 1)
        let blocks = DTVCCPacketReader.serviceBlocks(packets[0])
        #expect(blocks.count == 1 && blocks[0].service == 2 && Array(blocks[0].data) == Self.text("AB"))
        // An extended service number (7, then the number in the next byte); a block longer than the packet ends it.
        let extended = DTVCCPacketReader.serviceBlocks([0xE2, 40, 0x41, 0x42, 0x3F, 0x41])
        #expect(extended.map(\.service) == [40] && Array(extended[0].data) == [0x41, 0x42])
    }

    /// Whatever the bytes, decoding never traps and what it shows stays within the screen's bounds.
    @Test func arbitraryBytesNeverTrap() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...255).map { UInt8($0) }.array(of: 0...600)) { bytes in
            var decoder = CEA708Decoder(service: 1)
            var chunk = 0
            while chunk < bytes.count {
                let picture = Array(bytes[chunk..<min(chunk + 60, bytes.count)])
                // Half of the triplets marked as valid 708 data so that packets really form.
                let marked = picture.enumerated().map { $0.offset % 6 == 0 ? ($0.element | 0xFE) : $0.element }
                if let lines = decoder.decode(marked) {
                    #expect(lines.count <= CaptionText.maximumLines)
                    #expect(lines.allSatisfy { $0.unicodeScalars.count <= CEA708Window.maximumColumns })
                }
                chunk += 60
            }
        }
    }
}
