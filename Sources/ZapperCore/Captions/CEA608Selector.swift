/// Picks one CEA-608 data channel (CC1–CC4) out of a picture's `cc_data`
/// triplets (ATSC A/53: `marker|valid|type`, byte 1, byte 2), for a decoder
/// that reads only the first channel of field 1: the chosen field's pairs of
/// the chosen channel are kept, their control codes rewritten to channel 1's,
/// and sent as field-1 pairs. Characters carry no channel: they belong to the
/// channel of the last control code. XDS data (field 2) is dropped.
/// 708 packets (type 2 and 3) are left out: nothing here decodes them.
/// Joined in the middle of a caption, nothing is passed on until the channel's
/// next caption mode command (resume caption loading, roll-up, resume direct
/// captioning), so half a caption is never painted as if it were roll-up text.
public struct CEA608Selector: Sendable {
    public let number: Int
    /// The data channel (0 or 1) of the chosen field's last control code; nil inside XDS or before any.
    private var current: Int?
    /// Whether a caption mode command of the chosen channel has been seen.
    private var synced = false

    /// `number`: 1–4 (clamped).
    public init(number: Int) {
        self.number = min(max(number, 1), 4)
    }

    private var field: UInt8 { number <= 2 ? 0 : 1 }
    private var wantedChannel: Int { (number - 1) % 2 }

    /// The triplets for the decoder, from one picture's `cc_data`; at most 64 are read.
    public mutating func select(_ ccData: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index + 2 < ccData.count, index < 64 * 3 {
            defer { index += 3 }
            let header = ccData[index]
            let valid = header & 0x04 != 0
            let type = header & 0x03
            guard valid, type == field else { continue }
            let hi = ccData[index + 1] & 0x7F
            let lo = ccData[index + 2] & 0x7F
            switch hi {
            case 0x00:
                continue  // padding
            case 0x01...0x0F:
                current = nil  // XDS (field 2): not captions
                continue
            case 0x10...0x1F:
                current = hi & 0x08 == 0 ? 0 : 1
                guard current == wantedChannel else { continue }
                let code = hi & ~0x08
                if !synced {
                    guard code == 0x14 || code == 0x15, [0x20, 0x25, 0x26, 0x27, 0x29].contains(lo) else { continue }
                    synced = true
                }
                out += [0xFC, Self.withOddParity(code), Self.withOddParity(lo)]
            default:
                guard current == wantedChannel, synced else { continue }
                out += [0xFC, Self.withOddParity(hi), Self.withOddParity(lo)]
            }
        }
        return out
    }

    /// A 7-bit 608 byte with its odd-parity bit (bit 7) set as the standard wants.
    public static func withOddParity(_ byte: UInt8) -> UInt8 {
        let seven = byte & 0x7F
        return seven.nonzeroBitCount % 2 == 0 ? seven | 0x80 : seven
    }
}
