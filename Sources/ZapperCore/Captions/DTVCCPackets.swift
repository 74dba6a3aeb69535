/// CEA-708 caption channel packets (DTVCC) out of the pictures' `cc_data` (ATSC A/53), and the
/// service blocks inside them. A packet starts in a triplet of type 3 (its header: a sequence
/// number and its size in byte pairs, then its first byte) and goes on in triplets of type 2;
/// 608 pairs (types 0 and 1) and invalid triplets are passed over. Every size comes from the
/// stream: a packet is at most 128 bytes and a block what is left of its packet.
public struct DTVCCPacketReader: Sendable {
    /// The packet being gathered (without its header byte) and its whole size (header included).
    private var packet: [UInt8] = []
    private var expected = 0

    public init() {}

    /// The packets that one picture's `cc_data` completes (at most 64 triplets are read), each
    /// without its header byte. A packet cut short by the next one's start is given as far as it
    /// got: its whole service blocks still count.
    public mutating func read(_ ccData: [UInt8]) -> [[UInt8]] {
        var done: [[UInt8]] = []
        var index = 0
        while index + 2 < ccData.count, index < 64 * 3 {
            defer { index += 3 }
            let header = ccData[index]
            guard header & 0x04 != 0, header & 0x03 >= 2 else { continue }
            if header & 0x03 == 3 {
                if expected > 0, !packet.isEmpty { done.append(packet) }
                let code = Int(ccData[index + 1] & 0x3F)
                expected = code == 0 ? 128 : code * 2
                packet = [ccData[index + 2]]
            } else if expected > 0 {
                packet += [ccData[index + 1], ccData[index + 2]]
            } else {
                continue  // data with no packet started: joined mid-packet
            }
            if 1 + packet.count >= expected {
                done.append(Array(packet.prefix(expected - 1)))
                packet = []
                expected = 0
            }
        }
        return done
    }

    /// Forgets a packet in progress (a discontinuity).
    public mutating func reset() {
        packet = []
        expected = 0
    }

    /// The service blocks of one packet, in order: (service number 1–63, its bytes). A block of
    /// service 0 is padding and ends the packet; a block longer than what is left ends it too.
    public static func serviceBlocks(_ packet: [UInt8]) -> [(service: Int, data: ArraySlice<UInt8>)] {
        var blocks: [(Int, ArraySlice<UInt8>)] = []
        var index = 0
        while index < packet.count {
            var service = Int(packet[index] >> 5)
            let size = Int(packet[index] & 0x1F)
            index += 1
            if service == 0 { break }
            if service == 7 {
                guard index < packet.count else { break }
                service = Int(packet[index] & 0x3F)
                index += 1
            }
            guard size <= packet.count - index else { break }
            if service > 0 { blocks.append((service, packet[index..<(index + size)])) }
            index += size
        }
        return blocks
    }
}
