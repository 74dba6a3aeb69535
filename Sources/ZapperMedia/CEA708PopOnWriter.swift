import ZapperCore

/// Writes CEA-708 pop-on captions in service 1 as each picture's DTVCC triplets (A/53 cc_data
/// of types 3 and 2), for the demo channel's encoder, the way 708 does pop-on: each caption is
/// written into a hidden window (windows 0 and 1 in turn, defined at the bottom of the screen),
/// in the pictures before its start; at its start that window is shown and the other hidden; at
/// its end it is hidden. Up to `perPicture` triplets go in a picture (18 fit beside 608's two at
/// 30 pictures a second). Characters are G0's printable ASCII.
public enum CEA708PopOnWriter {
    public typealias Caption = CEA608PopOnWriter.Caption
    public static let perPicture = 10

    /// The service block bytes that load `caption` into hidden window `window`.
    static func loading(_ caption: Caption, window: Int) throws(CEA608PopOnWriter.WriteError) -> [UInt8] {
        guard (1...4).contains(caption.lines.count) else { throw .tooLong(caption.lines.joined(separator: " / ")) }
        var bytes: [UInt8] = [
            0x98 + UInt8(window),  // DefineWindow: hidden, priority 0; anchored at the bottom centre;
            0x00, 0x4A, 0x68, 0x70 | UInt8(caption.lines.count - 1), 31, 0x09,  // rows, 32 columns, styles 1
            0x88, 1 << UInt8(window),  // ClearWindows
        ]
        for (index, line) in caption.lines.enumerated() {
            guard line.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else { throw .unwritable(line) }
            guard line.unicodeScalars.count <= 32 else { throw .tooLong(line) }
            if index > 0 { bytes.append(0x0D) }  // carriage return
            bytes += line.unicodeScalars.map { UInt8($0.value) }
        }
        return bytes
    }

    /// `data` for service 1 as DTVCC packets (their sequence numbers counted on from `sequence`),
    /// each of at most three service blocks of at most 31 bytes, as triplets: a packet's header
    /// in its first (type 3), the rest in type 2.
    static func triplets(_ data: [UInt8], sequence: inout Int) -> [[UInt8]] {
        var triplets: [[UInt8]] = []
        for packetStart in stride(from: 0, to: data.count, by: 93) {
            var body: [UInt8] = []
            let packet = data[packetStart..<min(packetStart + 93, data.count)]
            for start in stride(from: packet.startIndex, to: packet.endIndex, by: 31) {
                let block = packet[start..<min(start + 31, packet.endIndex)]
                body.append(0x20 | UInt8(block.count))  // service 1, its size
                body += block
            }
            if body.count % 2 == 0 { body.append(0x00) }  // header + body in whole byte pairs (a null block pads)
            let bytes = [UInt8((sequence & 3) << 6) | UInt8((1 + body.count) / 2)] + body
            sequence += 1
            for start in stride(from: 0, to: bytes.count, by: 2) {
                triplets.append([start == 0 ? 0xFF : 0xFE, bytes[start], bytes[start + 1]])
            }
        }
        return triplets
    }

    /// Each picture's 708 triplets (their bytes, three a triplet) for `count` pictures at `frameRate`.
    public static func triplets(for captions: [Caption], frameRate: Int, count: Int) throws(CEA608PopOnWriter.WriteError) -> [[UInt8]] {
        var frames = [[UInt8]](repeating: [], count: max(count, 0))
        var free = 0  // the first picture not yet written
        var sequence = 0
        func place(_ data: [UInt8], at first: Int) {
            for (offset, triplet) in triplets(data, sequence: &sequence).enumerated() {
                let frame = first + offset / perPicture
                if frames.indices.contains(frame) { frames[frame] += triplet }
            }
        }
        for (index, caption) in captions.sorted(by: { $0.start < $1.start }).enumerated() {
            let window = index % 2
            let load = try loading(caption, window: window)
            var counting = 0
            let loadPictures = (triplets(load, sequence: &counting).count + perPicture - 1) / perPicture
            let show = Int((caption.start * Double(frameRate)).rounded())
            let hide = Int((caption.end * Double(frameRate)).rounded())
            guard show - loadPictures >= free, hide > show, hide < frames.count else { throw .overlaps(caption.start) }
            place(load, at: show - loadPictures)
            place([0x89, 1 << UInt8(window), 0x8A, 1 << UInt8(1 - window)], at: show)  // show it, hide the other
            place([0x8A, 1 << UInt8(window)], at: hide)
            free = hide + 1
        }
        return frames
    }
}
