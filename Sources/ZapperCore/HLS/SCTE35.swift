/// The part of an SCTE-35 `splice_info_section` a cue needs: a
/// `splice_insert`'s event id, whether it leaves the network (a break begins)
/// or returns, and its break duration. Every length is checked against the
/// bytes there are; anything else (another command, encryption, a short or
/// malformed section) is nil.
public struct SpliceInsert: Sendable, Equatable {
    public var eventID: UInt32
    public var outOfNetwork: Bool
    /// Seconds (the 90 kHz break_duration), when given.
    public var duration: Double?

    public static func parse(_ bytes: [UInt8]) -> SpliceInsert? {
        // table_id 0xFC; section_length; protocol_version, encrypted_packet, …; 14 bytes to the command.
        guard bytes.count >= 14, bytes[0] == 0xFC else { return nil }
        let sectionLength = Int(bytes[1] & 0x0F) << 8 | Int(bytes[2])
        guard sectionLength + 3 <= bytes.count, bytes[4] & 0x80 == 0 else { return nil }  // not encrypted
        let commandType = bytes[13]
        guard commandType == 0x05 else { return nil }
        var reader = BitReader(bytes: bytes, byte: 14)
        guard let eventID = reader.read(32), let cancelled = reader.read(1), reader.skip(7) else { return nil }
        guard cancelled == 0 else { return nil }
        guard let outOfNetwork = reader.read(1), let programSplice = reader.read(1), let hasDuration = reader.read(1),
              let immediate = reader.read(1), reader.skip(4) else { return nil }
        if programSplice == 1, immediate == 0 {
            guard let timeSpecified = reader.read(1) else { return nil }
            guard reader.skip(timeSpecified == 1 ? 6 + 33 : 7) else { return nil }
        } else if programSplice == 0 {
            guard let count = reader.read(8) else { return nil }
            for _ in 0..<count {
                guard reader.skip(8) else { return nil }
                if immediate == 0 {
                    guard let timeSpecified = reader.read(1), reader.skip(timeSpecified == 1 ? 6 + 33 : 7) else { return nil }
                }
            }
        }
        var duration: Double?
        if hasDuration == 1 {
            guard reader.skip(7), let ticks = reader.read(33) else { return nil }
            duration = Double(ticks) / 90_000
        }
        return SpliceInsert(eventID: UInt32(eventID), outOfNetwork: outOfNetwork == 1, duration: duration)
    }

    /// A section given as hex (`0xFC30…`, DATERANGE's SCTE35-OUT) or base64 (EXT-OATCLS-SCTE35).
    public static func bytes(hex text: Substring) -> [UInt8]? {
        var digits = text.trimmingSpaces
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard digits.utf8.count <= 2 * maxBytes else { return nil }
        return Hex.bytes(digits)
    }

    /// The longest section read, bytes (the format's own limit is 4 KiB).
    public static let maxBytes = 4_096
}

/// Reads big-endian bit fields, never past the end.
private struct BitReader {
    let bytes: [UInt8]
    var bit: Int

    init(bytes: [UInt8], byte: Int) {
        self.bytes = bytes
        bit = byte * 8
    }

    mutating func read(_ count: Int) -> UInt64? {
        guard count <= 64, bit + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        for _ in 0..<count {
            value = value << 1 | UInt64(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            bit += 1
        }
        return value
    }

    mutating func skip(_ count: Int) -> Bool {
        guard bit + count <= bytes.count * 8 else { return false }
        bit += count
        return true
    }
}
