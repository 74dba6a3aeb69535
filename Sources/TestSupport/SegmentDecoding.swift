import ZapperMedia

/// Decodes every audio and video packet a demuxer gives, draining the
/// decoders at the end; each frame goes to `frame` with its stream's kind.
/// Streams that appear while it reads (a PMT that changed) get decoders as they come; a
/// video stream is decoded from its first key frame.
public func decodeAll(_ demuxer: Demuxer, frame handle: (MediaKind, Frame) throws -> Void) throws {
    var decoders: [Int: Decoder] = [:]
    // A video stream joined in the middle has nothing to decode before its first key frame.
    var keyed = Set<Int>()
    func drain(_ decoder: Decoder) throws {
        while let frame = try decoder.receive() { try handle(decoder.kind, frame) }
    }
    while let packet = try demuxer.readPacket() {
        let parameters = demuxer.parameters[packet.streamIndex]
        guard parameters.kind == .video || parameters.kind == .audio else { continue }
        if parameters.kind == .video, !keyed.contains(packet.streamIndex) {
            guard packet.isKeyframe else { continue }
            keyed.insert(packet.streamIndex)
        }
        let decoder = try decoders[packet.streamIndex] ?? Decoder(parameters)
        decoders[packet.streamIndex] = decoder
        try decoder.send(packet)
        try drain(decoder)
    }
    for decoder in decoders.sorted(by: { $0.key < $1.key }).map(\.value) {
        try decoder.send(nil)
        try drain(decoder)
    }
}
