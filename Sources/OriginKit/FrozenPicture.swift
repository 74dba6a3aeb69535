import Foundation

/// The `freeze` fault: a segment whose video pictures are all one picture (a key frame: the one
/// its first picture is, or one `picture` gives for it, the first of an earlier segment), at the
/// times of every `keep`th picture it replaces (a key frame is large:
/// one for each of 50 pictures would pass the player's size limit at 1080p); the sound and
/// everything else as they were. A player sees pictures keep coming that never change, as from
/// an encoder whose input froze.
enum FrozenPicture {
    private static let packetSize = 188
    /// One picture in this many is kept (as the first picture again).
    static let keep = 5

    /// The segment (whole MPEG-TS packets) with its video frozen on its first picture; the bytes
    /// unchanged when they are not MPEG-TS with a video stream (an encrypted segment, say).
    static func freeze(_ data: Data, picture: ([UInt8]) -> [UInt8] = { $0 }) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= packetSize, bytes.count % packetSize == 0,
              stride(from: 0, to: bytes.count, by: packetSize).allSatisfy({ bytes[$0] == 0x47 }) else { return data }
        // The video PID: the first PES that starts with a video stream id (0xE0–0xEF).
        var videoPID: Int?
        var units: [(packet: Int, timestamp: [UInt8])] = []   // each video PES: its first packet and its PES timestamp bytes
        var firstPicture: [UInt8] = []
        var collectingFirst = false
        for start in stride(from: 0, to: bytes.count, by: packetSize) {
            let pid = (Int(bytes[start + 1] & 0x1F) << 8) | Int(bytes[start + 2])
            guard let payload = payloadStart(bytes, start) else { continue }
            let unitStart = bytes[start + 1] & 0x40 != 0
            if videoPID == nil, unitStart, payload + 9 <= start + packetSize, bytes[payload] == 0, bytes[payload + 1] == 0,
               bytes[payload + 2] == 1, bytes[payload + 3] & 0xF0 == 0xE0 {
                videoPID = pid
            }
            guard pid == videoPID else { continue }
            if unitStart {
                guard let header = pesHeader(bytes, payload, end: start + packetSize) else { return data }
                collectingFirst = units.isEmpty
                units.append((start, header.timestamp))
                if collectingFirst { firstPicture += bytes[(payload + header.length)..<(start + packetSize)] }
            } else if collectingFirst {
                firstPicture += bytes[payload..<(start + packetSize)]
            }
        }
        guard let videoPID, !units.isEmpty, !firstPicture.isEmpty else { return data }
        let repeated = picture(firstPicture)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var counter: UInt8 = 0
        let starts = Dictionary(units.enumerated().filter { $0.offset % keep == 0 }.map { ($0.element.packet, $0.element.timestamp) },
                                uniquingKeysWith: { first, _ in first })
        for start in stride(from: 0, to: bytes.count, by: packetSize) {
            let pid = (Int(bytes[start + 1] & 0x1F) << 8) | Int(bytes[start + 2])
            guard pid == videoPID else {
                output += bytes[start..<(start + packetSize)]
                continue
            }
            // The first picture's bytes in place of each picture, under a header of its time.
            guard let timestamp = starts[start] else { continue }
            let pes: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5] + timestamp + repeated
            output += packetize(pes, pid: pid, keyFrame: bytes[start + 3] & 0x20 != 0 ? adaptation(bytes, start) : nil, counter: &counter)
        }
        return Data(output)
    }

    /// Where the packet's payload starts (nil: none).
    private static func payloadStart(_ bytes: [UInt8], _ start: Int) -> Int? {
        let control = (bytes[start + 3] >> 4) & 0x3
        guard control & 0x1 != 0 else { return nil }
        let payload = control & 0x2 != 0 ? start + 5 + Int(bytes[start + 4]) : start + 4
        return payload < start + packetSize ? payload : nil
    }

    /// A PES header's length and its presentation time as a PTS-only field (the DTS when there is
    /// one, so the frozen pictures come in decoding order); nil when it is not one.
    private static func pesHeader(_ bytes: [UInt8], _ payload: Int, end: Int) -> (length: Int, timestamp: [UInt8])? {
        guard payload + 9 <= end, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1 else { return nil }
        let length = 9 + Int(bytes[payload + 8])
        let flags = bytes[payload + 7] >> 6
        guard flags & 0x2 != 0, payload + length <= end else { return nil }
        let field = flags == 0x3 ? payload + 14 : payload + 9
        var timestamp = Array(bytes[field..<(field + 5)])
        timestamp[0] = 0x20 | (timestamp[0] & 0x0E) | 1   // '0010' PTS only
        return (length, timestamp)
    }

    /// The packet's adaptation field (PCR, random access), kept on the first packet of its picture.
    private static func adaptation(_ bytes: [UInt8], _ start: Int) -> [UInt8] {
        let length = Int(bytes[start + 4])
        return Array(bytes[(start + 4)..<min(start + 5 + length, start + packetSize)])
    }

    /// `pes` cut into packets of `pid`; the last one padded by an adaptation field's stuffing.
    private static func packetize(_ pes: [UInt8], pid: Int, keyFrame adaptationField: [UInt8]?, counter: inout UInt8) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        var first = true
        while offset < pes.count {
            var field = first ? adaptationField ?? [] : []
            let room = packetSize - 4 - field.count
            let take = min(room, pes.count - offset)
            if take < room {
                // Stuffing: grow (or start) the adaptation field to fill the packet.
                let padding = room - take
                if field.isEmpty {
                    field = padding == 1 ? [0] : [UInt8(padding - 1), 0] + [UInt8](repeating: 0xFF, count: padding - 2)
                } else {
                    field[0] = UInt8(Int(field[0]) + padding)
                    field += [UInt8](repeating: 0xFF, count: padding)
                }
            }
            let control: UInt8 = field.isEmpty ? 0x10 : 0x30
            output += [0x47, (first ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), control | counter] + field
            output += pes[offset..<(offset + take)]
            counter = (counter + 1) & 0x0F
            offset += take
            first = false
        }
        return output
    }
}
