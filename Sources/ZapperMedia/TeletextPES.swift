/// DVB teletext subtitles as a broadcaster sends them (EN 300 472 carrying ETS 300 706 packets),
/// for the demo origin: FFmpeg decodes teletext (libzvbi) but has no encoder for it.
///
/// The rules of the bytes:
/// - A PES payload is a data identifier (0x10) and data units of 46 bytes: an id (0x03, EBU
///   teletext subtitle; 0xFF, stuffing), a length (0x2C), the field and line, the framing code
///   (0xE4), then the packet's 42 bytes — each byte's bits reversed, as EN 300 472 sends them.
///   With the PES header of 45 bytes the muxer writes, a payload of 1 + 3k·46 + … is padded to
///   `unitsPerPES` units so that the PES fills whole TS packets (184 bytes: 3 units).
/// - A packet's address (magazine, row) and a page header's page number, subcode and control bits
///   are Hamming 8/4 coded; the 40 characters of a row are 7-bit with odd parity.
/// - A subtitle page: its header says erase (C4), subtitle (C6) and suppress header (C7), in
///   serial magazine mode (C11); its rows hold the text between Start Box and End Box. It is shown
///   when the next header (the time-filling page FF) ends it; a page of no rows clears the screen.
public enum TeletextPES {
    public static let dataIdentifier: UInt8 = 0x10
    public static let unitsPerPES = 3
    static let unitLength = 46

    /// The PES payload that puts `rows` (at most two, each at most 34 characters) on screen as
    /// page `page` (hex digits as teletext numbers them: 0x888 is page 888), then closes it.
    public static func page(_ page: Int, rows: [String]) -> [[UInt8]] {
        let magazine = (page >> 8) & 0x7
        let header = headerPacket(magazine: magazine, page: page & 0xFF, subtitle: true)
        let lines = rows.prefix(2).enumerated().map { index, text in rowPacket(magazine: magazine, row: 24 - rows.prefix(2).count + index, text: text) }
        let closing = headerPacket(magazine: magazine, page: 0xFF, subtitle: false)
        return [payload([header] + lines), payload([closing])]
    }

    /// Data units padded with stuffing to `unitsPerPES`, behind the data identifier.
    static func payload(_ packets: [[UInt8]]) -> [UInt8] {
        var bytes = [dataIdentifier]
        for packet in packets.prefix(unitsPerPES) {
            bytes += [0x03, 0x2C, 0xC0 | 0x20 | 21, 0xE4] + packet.map(reversed)
        }
        for _ in packets.count..<unitsPerPES { bytes += [0xFF, 0x2C] + [UInt8](repeating: 0xFF, count: 44) }
        return bytes
    }

    /// Magazine and row address, Hamming coded (magazine 8 is sent as 0).
    static func address(magazine: Int, row: Int) -> [UInt8] {
        [hamming((magazine & 0x7) | ((row & 1) << 3)), hamming(row >> 1)]
    }

    static func headerPacket(magazine: Int, page: Int, subtitle: Bool) -> [UInt8] {
        // Subcode 0; C4 erase, C6 subtitle (both in the subcode bytes' top bits), C7 suppress
        // header, C11 serial mode.
        let control: [UInt8] = [hamming(page & 0xF), hamming(page >> 4), hamming(0), hamming(subtitle ? 0x8 : 0),
                                hamming(0), hamming(subtitle ? 0x8 : 0), hamming(subtitle ? 0x1 : 0), hamming(0x1)]
        return address(magazine: magazine, row: 0) + control + [UInt8](repeating: parity(0x20), count: 32)
    }

    static func rowPacket(magazine: Int, row: Int, text: String) -> [UInt8] {
        let characters = Array(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? UInt8($0.value) : 0x20 }.prefix(34))
        // Centred as broadcasters send it: white text, Start Box twice, the text, End Box twice.
        let boxed: [UInt8] = [0x07, 0x0B, 0x0B] + characters + [0x0A, 0x0A]
        var line = [UInt8](repeating: 0x20, count: (40 - boxed.count) / 2) + boxed
        line += [UInt8](repeating: 0x20, count: 40 - line.count)
        return address(magazine: magazine, row: row) + line.map(parity)
    }

    /// Hamming 8/4 of a nibble (ETS 300 706, 8.2), bit 1 first.
    static func hamming(_ nibble: Int) -> UInt8 {
        let table: [UInt8] = [0x15, 0x02, 0x49, 0x5E, 0x64, 0x73, 0x38, 0x2F, 0xD0, 0xC7, 0x8C, 0x9B, 0xA1, 0xB6, 0xFD, 0xEA]
        return table[nibble & 0xF]
    }

    /// A 7-bit character with its odd parity bit.
    static func parity(_ character: UInt8) -> UInt8 {
        let bits = character & 0x7F
        return bits.nonzeroBitCount % 2 == 0 ? bits | 0x80 : bits
    }

    static func reversed(_ byte: UInt8) -> UInt8 {
        var value = byte, result: UInt8 = 0
        for _ in 0..<8 {
            result = (result << 1) | (value & 1)
            value >>= 1
        }
        return result
    }
}
