import ZapperMedia

/// Decodes every audio and video packet a demuxer gives, draining the
/// decoders at the end; each frame goes to `frame` with its stream's kind.
public func decodeAll(_ demuxer: Demuxer, frame handle: (MediaKind, Frame) throws -> Void) throws {
    let decoders = try demuxer.parameters.map { $0.kind == .video || $0.kind == .audio ? try Decoder($0) : nil }
    func drain(_ decoder: Decoder) throws {
        while let frame = try decoder.receive() { try handle(decoder.kind, frame) }
    }
    while let packet = try demuxer.readPacket() {
        guard let decoder = decoders[packet.streamIndex] else { continue }
        try decoder.send(packet)
        try drain(decoder)
    }
    for decoder in decoders.compactMap({ $0 }) {
        try decoder.send(nil)
        try drain(decoder)
    }
}
