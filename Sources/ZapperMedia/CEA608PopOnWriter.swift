import ZapperCore

/// Writes CEA-608 pop-on captions (CC1, field 1) as the byte pairs of each
/// picture, for the demo channel's encoder: each caption is loaded into the
/// hidden memory in the pictures before its start (resume caption loading,
/// erase the hidden memory, a preamble per row, the text two characters a
/// pair), shown at its start (end of caption) and erased at its end. Control
/// codes are sent twice, as broadcasters do. Only the characters of the basic
/// set that read the same everywhere are written.
public struct CEA608PopOnWriter: Sendable {
    public struct Caption: Codable, Sendable, Equatable {
        /// Seconds from the first picture.
        public var start: Double
        public var end: Double
        public var lines: [String]

        public init(start: Double, end: Double, lines: [String]) {
            self.start = start
            self.end = end
            self.lines = lines
        }
    }

    public enum WriteError: Error, Equatable, CustomStringConvertible {
        case unwritable(String)
        case tooLong(String)
        case overlaps(Double)

        public var description: String {
            switch self {
            case .unwritable(let line): "\"\(line)\" has a character CEA-608 cannot carry here (A-Z, a-z, 0-9, space, .,!?-:;'\"/()&)"
            case .tooLong(let line): "\"\(line)\" is longer than 32 columns, or a caption has more than 4 rows"
            case .overlaps(let start): "the caption at \(start) s cannot be loaded in time (it would overlap the one before, or start before 0)"
            }
        }
    }

    static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,!?-:;\"/()&".unicodeScalars)

    // Miscellaneous control codes of data channel 1, field 1.
    static let resumeCaptionLoading: [UInt8] = [0x14, 0x20]
    static let eraseHiddenMemory: [UInt8] = [0x14, 0x2E]
    static let endOfCaption: [UInt8] = [0x14, 0x2F]
    static let eraseDisplayedMemory: [UInt8] = [0x14, 0x2C]

    /// The preamble address code for `row` (1–15), column 0, white.
    static func preamble(row: Int) -> [UInt8] {
        let codes: [(UInt8, UInt8)] = [(0x11, 0x40), (0x11, 0x60), (0x12, 0x40), (0x12, 0x60), (0x15, 0x40), (0x15, 0x60),
                                       (0x16, 0x40), (0x16, 0x60), (0x17, 0x40), (0x17, 0x60), (0x10, 0x40), (0x13, 0x40),
                                       (0x13, 0x60), (0x14, 0x40), (0x14, 0x60)]
        let code = codes[min(max(row, 1), 15) - 1]
        return [code.0, code.1]
    }

    /// The pairs (without parity) that load `caption` into the hidden memory, rows at the bottom of the screen.
    static func loading(_ caption: Caption) throws(WriteError) -> [[UInt8]] {
        guard caption.lines.count <= 4 else { throw .tooLong(caption.lines.joined(separator: " / ")) }
        var pairs = [resumeCaptionLoading, resumeCaptionLoading, eraseHiddenMemory, eraseHiddenMemory]
        for (index, line) in caption.lines.enumerated() {
            guard line.unicodeScalars.allSatisfy(allowed.contains) else { throw .unwritable(line) }
            guard line.unicodeScalars.count <= 32 else { throw .tooLong(line) }
            let row = 16 - caption.lines.count + index
            pairs += [preamble(row: row), preamble(row: row)]
            let bytes = line.unicodeScalars.map { UInt8($0.value) }
            for start in stride(from: 0, to: bytes.count, by: 2) {
                pairs.append([bytes[start], start + 1 < bytes.count ? bytes[start + 1] : 0])
            }
        }
        return pairs
    }

    /// Each picture's field-1 pair (parity set), nil where there is none, for `count` pictures at `frameRate`.
    public static func pairs(for captions: [Caption], frameRate: Int, count: Int) throws(WriteError) -> [[UInt8]?] {
        var frames = [[UInt8]?](repeating: nil, count: max(count, 0))
        var free = 0  // the first picture not yet written
        for caption in captions.sorted(by: { $0.start < $1.start }) {
            let load = try loading(caption)
            let show = Int((caption.start * Double(frameRate)).rounded())
            let erase = Int((caption.end * Double(frameRate)).rounded())
            guard show - load.count >= free, erase >= show + 2, erase + 2 <= frames.count else { throw .overlaps(caption.start) }
            var timed: [(frame: Int, pair: [UInt8])] = []
            for (offset, pair) in load.enumerated() { timed.append((show - load.count + offset, pair)) }
            timed.append((show, endOfCaption))
            timed.append((show + 1, endOfCaption))
            timed.append((erase, eraseDisplayedMemory))
            timed.append((erase + 1, eraseDisplayedMemory))
            for (frame, pair) in timed { frames[frame] = pair.map(CEA608Selector.withOddParity) }
            free = erase + 2
        }
        return frames
    }

    /// One picture's `cc_data` (A/53): its field-1 pair or padding, and field-2 padding.
    public static func ccData(_ pair: [UInt8]?) -> [UInt8] {
        [0xFC] + (pair ?? [0x80, 0x80]) + [0xFD, 0x80, 0x80]
    }
}
