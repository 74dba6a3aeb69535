import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct UTF8RepairTests {
    func run(_ chunks: [[UInt8]]) -> (bytes: [UInt8], replaced: Bool) {
        var repair = UTF8Repair()
        var out: [UInt8] = []
        for (index, chunk) in chunks.enumerated() { out += index == 0 ? repair.first(chunk) : repair.feed(chunk) }
        out += repair.finish()
        return (out, repair.replacedAny)
    }

    @Test func invalidBytesBecomeReplacementCharacters() {
        let repaired = run([[0x3C, 0x61, 0xFF, 0x3E], [0xC3]])
        #expect(String(decoding: repaired.bytes, as: UTF8.self) == "<a\u{FFFD}>\u{FFFD}" && repaired.replaced)
        #expect(run([Array("<tv>ü€😀</tv>".utf8)]) == (Array("<tv>ü€😀</tv>".utf8), false))
    }

    @Test func aSequenceCutByAChunkEndWaitsForTheNext() {
        let text = Array("Grüße 😀 €".utf8)
        for cut in 1..<text.count {
            let repaired = run([Array(text[..<cut]), Array(text[cut...])])
            #expect(repaired.bytes == text && !repaired.replaced, "cut at \(cut)")
        }
    }

    @Test func anotherDeclaredEncodingPassesThrough() {
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><tv>".utf8) + [0xE9] + Array("</tv>".utf8)
        #expect(run([latin1]).bytes == latin1)
        #expect(run([[0xFF, 0xFE, 0x3C, 0x00]]).bytes == [0xFF, 0xFE, 0x3C, 0x00])
        let declared = Array("<?xml version='1.0' encoding='utf-8'?><a".utf8) + [0xFF]
        #expect(run([declared]).replaced)
        // An encoding nobody knows is read as UTF-8 (libxml2 would), so it is repaired too.
        let garbage = Array("<?xml version=\"1.0\" encoding=\"UT".utf8) + [0x8F] + Array("-8\"?><a".utf8) + [0xF5] + Array(">".utf8)
        #expect(run([garbage]).replaced)
        #expect(UTF8Repair.passesThrough("windows-1252") && UTF8Repair.passesThrough("iso_8859-15") && UTF8Repair.passesThrough("shift_jis") && !UTF8Repair.passesThrough("ut\u{8f}-8"))
    }

    /// Any bytes in any chunks come out as valid UTF-8; valid UTF-8 comes out unchanged.
    /// (Bytes that start with a UTF-16 byte order mark are a UTF-16 guide, passed through
    /// for libxml2 to convert: about one run in sixty-five drew such a start.)
    @Test func outputIsAlwaysValidAndValidInputIsKept() async {
        let bytes = Gen.int(in: 0...255).map { UInt8($0) }.array(of: 0...64)
        await propertyCheck(count: 500, input: bytes.array(of: 1...6)) { chunks in
            if let first = chunks.first, first.starts(with: [0xFE, 0xFF]) || first.starts(with: [0xFF, 0xFE]) { return }
            let out = run(chunks).bytes
            #expect(String(validating: out, as: UTF8.self) != nil)
            let valid = Array(String(decoding: chunks.joined(), as: UTF8.self).utf8)
            var pieces: [[UInt8]] = []
            var offset = 0
            for chunk in chunks where offset < valid.count {
                let end = min(valid.count, offset + max(1, chunk.count))
                pieces.append(Array(valid[offset..<end]))
                offset = end
            }
            if offset < valid.count { pieces.append(Array(valid[offset...])) }
            #expect(run(pieces.isEmpty ? [[]] : pieces).bytes == valid)
        }
    }
}
