import Foundation
import ZapperCore
import ZapperHLS
import ZapperMedia

/// What the decode thread of a warm neighbour does before its promotion.
extension ChannelPlayback {
    /// The first picture of a kept segment head, decoded at the promotion.
    struct WarmPreview {
        let frame: Frame
        /// The video stream's ID.
        let stream: Int32
        let timeBase: (numerator: Int32, denominator: Int32)
    }

    /// Until the promotion (or the stop): learns the codec parameters of each variant it keeps
    /// that has none yet, from a copy of its newest whole segment or head (demuxing only), so the
    /// promotion opens without probing (which would wait for bytes that come only then). Gives up
    /// quietly after three failures: promotion probes then.
    ///
    /// The kept head's key frame is decoded at the promotion, not here: a neighbour keeps a new
    /// head every segment, and decoding each (a 1080p key frame is a fifth of its segment's
    /// bytes) took about 7 % of the CPU of a box playing 1080p, more than its sound and its
    /// overlay together, for a picture seen only if that neighbour is the next channel flipped to.
    func learnWhileWarm() {
        let source = channel.url.absoluteString
        var handled: Int64 = .min
        var failures = 0
        while failures < 3, let newest = inbox.newestWhole(where: { $0.sequence > handled }) {
            handled = newest.sequence
            guard parametersCache.get(channel.number, variant: newest.variant, source: source) == nil else { continue }
            if let demuxer = try? Demuxer(queue: newest.bytes.snapshot(), container: newest.container), demuxer.probed {
                parametersCache.set(demuxer.parameters, for: channel.number, variant: newest.variant, source: source)
            } else {
                failures += 1
            }
        }
    }

    /// The first video picture of a head: its first video packet decoded alone, the decoder
    /// drained; nil without the variant's codec parameters, or when it does not decode.
    func firstPicture(of head: HLSSegmentDelivery) -> WarmPreview? {
        guard let cached = parametersCache.get(channel.number, variant: head.variant, source: channel.url.absoluteString) else { return nil }
        return try? decodeFirstPicture(of: head, cached: cached)
    }

    private func decodeFirstPicture(of head: HLSSegmentDelivery, cached: [CodecParameters]) throws -> WarmPreview? {
        let demuxer = try Demuxer(queue: head.bytes.snapshot(), container: head.container, cached: cached, program: channel.program)
        while let packet = try demuxer.readPacket() {
            let parameters = demuxer.parameters[packet.streamIndex]
            guard parameters.kind == .video else { continue }
            let decoder = try Decoder(parameters, threads: 1)
            try decoder.send(packet)
            try decoder.send(nil)
            guard let frame = try decoder.receive() else { return nil }
            return WarmPreview(frame: frame, stream: parameters.streamID,
                               timeBase: demuxer.timeBase(stream: packet.streamIndex))
        }
        return nil
    }
}
