/// Decodes one CEA-708 caption service (service 1 is the main one) from each picture's
/// `cc_data` into the lines on screen: the text of its visible windows, ordered top to bottom.
/// The service's code space: C0 controls (carriage return, backspace, form feed…), G0 (ASCII,
/// 0x7F the music note), C1 commands (windows defined, shown, hidden, toggled, cleared and
/// deleted; the pen moved), G1 (Latin-1), and behind EXT1 the G2/G3 characters and C2/C3
/// codes (skipped by their lengths). Pen and window styles, colours and delays are read past:
/// the lines are drawn like any subtitles. Everything comes from the stream: sizes are clamped,
/// a command cut at the end of a block waits (at most 8 bytes) for the next.
public struct CEA708Decoder: Sendable {
    public let service: Int
    private var packets = DTVCCPacketReader()
    private var windows: [CEA708Window?] = Array(repeating: nil, count: 8)
    private var current: Int?
    /// Bytes of a command whose parameters the block did not hold.
    private var pending: [UInt8] = []
    private var shown: [String] = []

    /// `service`: 1–63 (clamped).
    public init(service: Int) {
        self.service = min(max(service, 1), 63)
    }

    /// One picture's `cc_data`; the lines on screen when they changed, else nil.
    public mutating func decode(_ ccData: [UInt8]) -> [String]? {
        for packet in packets.read(ccData) {
            for block in DTVCCPacketReader.serviceBlocks(packet) where block.service == service {
                interpret(pending + block.data)
            }
        }
        let now = screen
        guard now != shown else { return nil }
        shown = now
        return now
    }

    /// A discontinuity: a new stream, nothing on screen.
    public mutating func reset() {
        packets.reset()
        windows = Array(repeating: nil, count: 8)
        current = nil
        pending = []
        shown = []
    }

    /// The visible windows' lines, the window anchored highest first (then by priority).
    var screen: [String] {
        let visible = windows.compactMap { $0 }.filter(\.visible)
            .sorted { ($0.anchorVertical, $0.priority) < ($1.anchorVertical, $1.priority) }
        return Array(visible.flatMap(\.lines).prefix(CaptionText.maximumLines))
    }

    private mutating func interpret(_ bytes: [UInt8]) {
        pending = []
        var index = 0
        while index < bytes.count {
            let code = bytes[index]
            let length = Self.length(of: bytes, at: index)
            guard index + length <= bytes.count else {
                // Cut at the block's end: kept for the next block when short (a long C3 code is dropped).
                if length <= 8 { pending = Array(bytes[index...]) }
                return
            }
            let parameters = bytes[(index + 1)..<(index + length)]
            switch code {
            case 0x10: extended(Array(parameters))
            case 0x00...0x1F: control(code)
            case 0x20...0x7E: write(Unicode.Scalar(code))
            case 0x7F: write("\u{266A}")
            case 0x80...0x9F: command(code, Array(parameters))
            default: write(Unicode.Scalar(code))  // G1: Latin-1
            }
            index += length
        }
    }

    /// The bytes the code at `index` takes, itself included.
    static func length(of bytes: [UInt8], at index: Int) -> Int {
        let code = bytes[index]
        switch code {
        case 0x10:  // EXT1, then a code of C2, G2, C3 or G3
            guard index + 1 < bytes.count else { return 2 }
            let next = bytes[index + 1]
            switch next {
            case 0x00...0x07: return 2
            case 0x08...0x0F: return 3
            case 0x10...0x17: return 4
            case 0x18...0x1F: return 5
            case 0x80...0x87: return 6
            case 0x88...0x8F: return 7
            case 0x90...0x9F:  // variable length: the next byte's low six bits count what follows it
                guard index + 2 < bytes.count else { return 3 }
                return 3 + Int(bytes[index + 2] & 0x3F)
            default: return 2
            }
        case 0x11...0x17: return 2
        case 0x18...0x1F: return 3
        case 0x88...0x8D: return 2
        case 0x90, 0x92: return 3
        case 0x91: return 4
        case 0x97: return 5
        case 0x98...0x9F: return 7
        default: return 1
        }
    }

    private mutating func control(_ code: UInt8) {
        guard let current, windows[current] != nil else { return }
        switch code {
        case 0x08: windows[current]?.backspace()
        case 0x0C: windows[current]?.clear()
        case 0x0D: windows[current]?.carriageReturn()
        case 0x0E: windows[current]?.clearRow()
        default: break  // NUL, ETX and the rest
        }
    }

    private mutating func write(_ scalar: Unicode.Scalar) {
        guard let current, windows[current] != nil else { return }
        windows[current]?.write(scalar)
    }

    /// G2 and G3 characters (the C2 and C3 codes carry nothing shown).
    private mutating func extended(_ parameters: [UInt8]) {
        guard let code = parameters.first, code >= 0x20 else { return }
        switch code {
        case 0x20, 0x21: write(" ")  // transparent and non-breaking transparent space
        case 0x25: write("\u{2026}")
        case 0x2A: write("\u{0160}")
        case 0x2C: write("\u{0152}")
        case 0x30: write("\u{2588}")
        case 0x31: write("\u{2018}")
        case 0x32: write("\u{2019}")
        case 0x33: write("\u{201C}")
        case 0x34: write("\u{201D}")
        case 0x35: write("\u{2022}")
        case 0x39: write("\u{2122}")
        case 0x3A: write("\u{0161}")
        case 0x3C: write("\u{0153}")
        case 0x3D: write("\u{2120}")
        case 0x3F: write("\u{0178}")
        case 0x76...0x79: write(["\u{215B}", "\u{215C}", "\u{215D}", "\u{215E}"][Int(code - 0x76)])
        case 0x7A...0x7F: write(["\u{2502}", "\u{2510}", "\u{2514}", "\u{2500}", "\u{2518}", "\u{250C}"][Int(code - 0x7A)])
        default: write("_")  // a character with no glyph of its own here ([CC] and the rest)
        }
    }

    private mutating func command(_ code: UInt8, _ parameters: [UInt8]) {
        let bits = parameters.first ?? 0
        let chosen = (0..<8).filter { bits & (1 << $0) != 0 }
        switch code {
        case 0x80...0x87:  // CW0–CW7: SetCurrentWindow
            let window = Int(code - 0x80)
            if windows[window] != nil { current = window }
        case 0x88: for window in chosen { windows[window]?.clear() }
        case 0x89: for window in chosen { windows[window]?.visible = true }
        case 0x8A: for window in chosen { windows[window]?.visible = false }
        case 0x8B: for window in chosen { windows[window]?.visible.toggle() }
        case 0x8C:  // DeleteWindows
            for window in chosen { windows[window] = nil }
            if let current, windows[current] == nil { self.current = nil }
        case 0x8F:  // Reset
            windows = Array(repeating: nil, count: 8)
            current = nil
        case 0x92:  // SetPenLocation: row (4 bits), column (6 bits)
            guard let current, parameters.count == 2 else { return }
            windows[current]?.movePen(row: Int(parameters[0] & 0x0F), column: Int(parameters[1] & 0x3F))
        case 0x98...0x9F:
            define(Int(code - 0x98), parameters)
        default: break  // delays, pen and window attributes, pen colour, reserved
        }
    }

    /// DF0–DF7: DefineWindow. Visible (bit 5 of the first byte), the anchor's vertical position,
    /// rows (less one, low 4 bits of the fourth byte) and columns (less one, low 6 bits of the fifth).
    private mutating func define(_ window: Int, _ parameters: [UInt8]) {
        guard parameters.count == 6 else { return }
        let visible = parameters[0] & 0x20 != 0
        let priority = Int(parameters[0] & 0x07)
        let vertical = Int(parameters[1] & 0x7F)
        let rows = Int(parameters[3] & 0x0F) + 1
        let columns = Int(parameters[4] & 0x3F) + 1
        if windows[window] == nil {
            windows[window] = CEA708Window(rows: rows, columns: columns, visible: visible, anchorVertical: vertical, priority: priority)
        } else {
            windows[window]?.resize(rows: rows, columns: columns)
            windows[window]?.visible = visible
            windows[window]?.anchorVertical = vertical
            windows[window]?.priority = priority
        }
        current = window
    }
}
