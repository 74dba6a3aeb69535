/// Takes processing instructions (`<?target data?>`) out of an XML byte stream,
/// but for the XML declaration (`<?xml ` …) at its start. An XMLTV guide has no use for them,
/// and Foundation's XML parser on Linux reads a NULL pointer on one without data
/// (`<?x?>`): a guide could end the process (found by `make fuzz`). Streaming: it
/// holds back at most a `<` and, at the start, `<?xml` between chunks.
public struct InstructionFilter: Sendable {
    private enum State { case text, open, start, instruction, question, declaration, declarationQuestion }
    private var state = State.text
    /// At the start, what came after `<?` while it may still be `xml` and a space.
    private var pending: [UInt8] = []
    private static let declaration = Array("xml".utf8)
    /// Nothing but white space (and a byte order mark) has come yet.
    private var atStart = true

    public init() {}

    public mutating func feed(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    state = .open
                } else {
                    out.append(byte)
                    if atStart, !Self.isLeading(byte) { atStart = false }
                }
            case .open:
                if byte == UInt8(ascii: "?") {
                    state = atStart ? .start : .instruction
                    pending = []
                } else {
                    out.append(UInt8(ascii: "<"))
                    atStart = false
                    if byte == UInt8(ascii: "<") { continue }  // another may open
                    out.append(byte)
                    state = .text
                }
                atStart = false
            case .start:
                if pending.count < Self.declaration.count, byte == Self.declaration[pending.count] {
                    pending.append(byte)
                } else if pending.count == Self.declaration.count, Self.isLeading(byte), byte < 0x80 {
                    out += [UInt8(ascii: "<"), UInt8(ascii: "?")] + pending + [byte]
                    state = .declaration
                } else {
                    state = byte == UInt8(ascii: "?") ? .question : .instruction
                }
            case .instruction, .question:
                state = byte == UInt8(ascii: ">") && state == .question ? .text : byte == UInt8(ascii: "?") ? .question : .instruction
            case .declaration, .declarationQuestion:
                out.append(byte)
                state = byte == UInt8(ascii: ">") && state == .declarationQuestion ? .text
                    : byte == UInt8(ascii: "?") ? .declarationQuestion : .declaration
            }
        }
        return out
    }

    /// The end of the stream: a `<` held back goes out (an unfinished instruction does not).
    public mutating func finish() -> [UInt8] {
        defer { state = .text }
        return state == .open ? [UInt8(ascii: "<")] : []
    }

    private static func isLeading(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
