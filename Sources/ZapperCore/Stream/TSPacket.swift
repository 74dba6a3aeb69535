/// One 188-byte MPEG-TS packet's header fields (ISO/IEC 13818-1 §2.4.3.2), read
/// without trusting any of them: every offset is checked against the packet.
public struct TSPacket: Sendable, Equatable {
    public static let size = 188
    public static let sync: UInt8 = 0x47
    public static let patPID = 0

    public let pid: Int
    public let payloadStart: Bool
    /// The adaptation field's random_access_indicator: a decoder may start here.
    public let randomAccess: Bool
    /// Where the payload begins in the packet, if it has one.
    public let payloadOffset: Int?

    /// The header of the packet at `bytes[start...]`; nil when there is no whole packet there or no sync byte.
    public init?(_ bytes: [UInt8], at start: Int) {
        guard start >= 0, bytes.count - start >= Self.size, bytes[start] == Self.sync else { return nil }
        pid = (Int(bytes[start + 1] & 0x1F) << 8) | Int(bytes[start + 2])
        payloadStart = bytes[start + 1] & 0x40 != 0
        let control = (bytes[start + 3] >> 4) & 0x3
        var offset = 4
        var randomAccess = false
        if control & 0x2 != 0 {
            let length = Int(bytes[start + 4])
            if length > 0 { randomAccess = bytes[start + 5] & 0x40 != 0 }
            offset = 5 + length
        }
        self.randomAccess = randomAccess
        payloadOffset = control & 0x1 != 0 && offset < Self.size ? offset : nil
    }

    /// A PSI section's bytes in this packet (after the pointer field), when it starts one.
    public static func section(_ packet: ArraySlice<UInt8>, header: TSPacket) -> ArraySlice<UInt8>? {
        guard header.payloadStart, let offset = header.payloadOffset else { return nil }
        let base = packet.startIndex + offset
        let pointer = Int(packet[base])
        let begin = base + 1 + pointer
        return begin < packet.endIndex ? packet[begin...] : nil
    }

    /// The PMT PIDs a PAT section lists (program 0, the network PID, left out).
    public static func programMapPIDs(pat section: ArraySlice<UInt8>) -> [Int] {
        guard let body = sectionBody(section, tableID: 0x00) else { return [] }
        var pids: [Int] = []
        var index = body.startIndex
        while index + 4 <= body.endIndex {
            let program = (Int(body[index]) << 8) | Int(body[index + 1])
            let pid = (Int(body[index + 2] & 0x1F) << 8) | Int(body[index + 3])
            if program != 0 { pids.append(pid) }
            index += 4
        }
        return pids
    }

    /// The elementary streams a PMT section lists: PID and stream type.
    public static func streams(pmt section: ArraySlice<UInt8>) -> [(pid: Int, type: UInt8)] {
        guard let body = sectionBody(section, tableID: 0x02), body.count >= 4 else { return [] }
        let infoLength = (Int(body[body.startIndex + 2] & 0x0F) << 8) | Int(body[body.startIndex + 3])
        var index = body.startIndex + 4 + infoLength
        var streams: [(pid: Int, type: UInt8)] = []
        while index + 5 <= body.endIndex {
            let pid = (Int(body[index + 1] & 0x1F) << 8) | Int(body[index + 2])
            let esLength = (Int(body[index + 3] & 0x0F) << 8) | Int(body[index + 4])
            streams.append((pid, body[index]))
            index += 5 + esLength
        }
        return streams
    }

    /// A section's table-specific bytes: after its 8-byte header, before its CRC; only
    /// what this packet holds of it (tables longer than a packet are read in part).
    private static func sectionBody(_ section: ArraySlice<UInt8>, tableID: UInt8) -> ArraySlice<UInt8>? {
        guard section.count >= 12, section[section.startIndex] == tableID else { return nil }
        let length = (Int(section[section.startIndex + 1] & 0x0F) << 8) | Int(section[section.startIndex + 2])
        let end = min(section.endIndex, section.startIndex + 3 + length - 4)
        let begin = section.startIndex + 8
        return begin <= end ? section[begin..<end] : nil
    }

    /// Video stream types whose key frames a warm channel starts from: MPEG-1/2, MPEG-4 part 2, H.264, HEVC.
    public static func isVideo(streamType: UInt8) -> Bool { [0x01, 0x02, 0x10, 0x1B, 0x24].contains(streamType) }

    /// Whether a PES that starts in this packet begins a picture a decoder can start at:
    /// an H.264 SPS or IDR NAL unit, or an HEVC VPS, SPS or IRAP one, in its first bytes.
    public static func startsKeyFrame(_ packet: ArraySlice<UInt8>, header: TSPacket, streamType: UInt8) -> Bool {
        guard header.payloadStart, let offset = header.payloadOffset else { return false }
        let pes = packet.dropFirst(offset)
        // 00 00 01 stream_id, length (2), flags (2), header length.
        guard pes.count > 9, pes.starts(with: [0, 0, 1]) else { return false }
        let data = pes.dropFirst(9 + Int(pes[pes.startIndex + 8]))
        var index = data.startIndex
        while index + 3 < data.endIndex {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                let nal = data[index + 3]
                switch streamType {
                case 0x1B where [5, 7].contains(nal & 0x1F): return true
                case 0x24 where (16...21).contains((nal >> 1) & 0x3F) || [32, 33].contains((nal >> 1) & 0x3F): return true
                default: break
                }
                index += 3
            } else {
                index += 1
            }
        }
        return false
    }
}
