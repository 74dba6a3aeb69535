import Testing
@testable import ZapperCore

/// Processing instructions out of a guide's bytes (one without data crashed Foundation's
/// XML parser); the XML declaration, text and markup untouched, across any chunking.
@Suite struct InstructionFilterTests {
    func filtered(_ text: String, chunk: Int) -> String {
        var filter = InstructionFilter()
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            out += filter.feed(Array(bytes[index..<min(bytes.count, index + chunk)]))
            index += chunk
        }
        out += filter.finish()
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func instructionsGoTheDeclarationStays(_ chunk: Int) {
        let text = "\u{FEFF}<?xml version=\"1.0\"?>\n<?x?><tv a=\"1\"><?xml-stylesheet href=\"a?b\"?><title>a < b ? c</title></tv><"
        #expect(filtered(text, chunk: chunk) == "\u{FEFF}<?xml version=\"1.0\"?>\n<tv a=\"1\"><title>a < b ? c</title></tv><")
        #expect(filtered("<?x?>\n<tv/>", chunk: chunk) == "\n<tv/>", "at the start, only `<?xml ` is the declaration")
        #expect(filtered("<?xml-stylesheet?><tv/>", chunk: chunk) == "<tv/>")
        #expect(filtered("<tv><<?pi ?>x</tv>", chunk: chunk) == "<tv><x</tv>")
    }
}
