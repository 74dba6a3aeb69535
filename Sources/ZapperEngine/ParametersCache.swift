import Foundation
import ZapperMedia

/// Codec parameters per channel number and variant, so a re-tune skips
/// probing. Per variant: a master may mix codecs (HEVC and H.264 variants),
/// and one variant's parameters would open the wrong decoder for another.
/// A separate audio rendition is keyed by its playlist URL too, and a channel's
/// stream by its source's URL (a channel's sources may encode differently).
public final class ParametersCache: @unchecked Sendable {
    private struct Key: Hashable {
        let channel: Int
        let variant: Int
        let rendition: String
        let source: String
    }

    private let lock = NSLock()
    private var byKey: [Key: [CodecParameters]] = [:]

    public init() {}

    func get(_ channel: Int, variant: Int, rendition: String = "", source: String = "") -> [CodecParameters]? {
        lock.withLock { byKey[Key(channel: channel, variant: variant, rendition: rendition, source: source)] }
    }

    func set(_ parameters: [CodecParameters], for channel: Int, variant: Int, rendition: String = "", source: String = "") {
        lock.withLock { byKey[Key(channel: channel, variant: variant, rendition: rendition, source: source)] = parameters }
    }
}
