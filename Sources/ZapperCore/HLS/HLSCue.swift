import Foundation

/// An ad-break or programme marker a playlist carries, for automation (the
/// `cue` event): `EXT-X-DATERANGE` (RFC 8216bis, with its SCTE35-OUT/IN) and the
/// SCTE-35 cue tags CDNs and ad inserters write (`EXT-X-CUE-OUT`, `EXT-X-CUE-IN`,
/// `EXT-OATCLS-SCTE35`). Playback ignores them; nothing in one can fail a playlist.
public struct HLSCue: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A break (or the range) begins: SCTE35-OUT, CUE-OUT, a splice_insert out of network.
        case out
        /// It ends: SCTE35-IN, CUE-IN, a splice_insert back into the network.
        case `in`
        /// A date range with no SCTE-35 meaning (a programme, a chapter: see `cueClass`).
        case marker
    }

    /// The DATERANGE's ID, the splice event id, or `seq-N` for a tag with none (N: its segment).
    public var id: String
    public var kind: Kind
    /// Seconds, when the tag says (DURATION, PLANNED-DURATION, CUE-OUT's, a break_duration).
    public var duration: Double?
    /// The DATERANGE's CLASS.
    public var cueClass: String?

    public init(id: String, kind: Kind, duration: Double? = nil, cueClass: String? = nil) {
        self.id = id
        self.kind = kind
        self.duration = duration
        self.cueClass = cueClass
    }

    /// Longest id and class kept, characters (longer ones are cut).
    public static let maxText = 128
    /// Cues kept from one playlist; later ones are dropped.
    public static let maxPerPlaylist = 64
    /// Longest duration believed, seconds (a day); longer or negative: none.
    public static let maxDuration = 86_400.0

    /// A duration from a playlist: finite and within 0…`maxDuration`, else none.
    static func duration<Text: StringProtocol>(_ text: Text?) -> Double? {
        guard let text, let value = Double(String(text).trimmingCharacters(in: .whitespaces)), value.isFinite, (0...maxDuration).contains(value) else { return nil }
        return value
    }

    static func text(_ value: String?) -> String? {
        value.map { String($0.prefix(maxText)) }
    }
}

/// The cues already told, so a live playlist that lists a DATERANGE on every
/// reload gives one event, and one more when the range learns its end.
/// Bounded: the oldest are forgotten first.
public struct CueMemory: Sendable {
    private var seen: [HLSCue] = []
    private var keys: Set<String> = []
    public static let capacity = 256

    public init() {}

    /// Whether `cue` is new (and now remembered).
    public mutating func isNew(_ cue: HLSCue) -> Bool {
        let key = "\(cue.kind.rawValue) \(cue.id)"
        guard keys.insert(key).inserted else { return false }
        seen.append(cue)
        if seen.count > Self.capacity {
            let oldest = seen.removeFirst()
            keys.remove("\(oldest.kind.rawValue) \(oldest.id)")
        }
        return true
    }
}
