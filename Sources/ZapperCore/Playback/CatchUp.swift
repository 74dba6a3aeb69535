/// Whether a decoder decodes a group of pictures (a key frame and those up to the next) or
/// skips it. A box that decodes more slowly than the stream plays falls behind what is heard:
/// its sound, decoded late, is dropped as old, and its pictures are dropped as late. Skipping
/// the pictures of a group that starts behind (none of them is sent to the decoder, which goes
/// on at a later key frame; its key frame's picture would only be dropped as late) brings it
/// back in time, and the sound goes on while the picture holds. A group that falls far behind
/// while it is decoded is given up at that picture (`picture(at:heard:)`). So are groups larger
/// than the box was found to decode in time (`DecodeCeiling`), fetched before it was found,
/// while smaller ones are on their way.
///
/// A channel must play behind its live edge for this to hold: at the edge each segment comes
/// as its sound begins, every key frame a little behind what is heard, and every group would
/// be skipped (a warm neighbour keeps the head of the segment before the newest for that).
public struct CatchUp: Sendable {
    /// Whether the group at hand is skipped.
    public private(set) var skipping = false

    public init() {}

    /// A key frame at timeline time `time`, with the clock at `heard` (what the sound output
    /// takes from now; nil before it takes any): the group it starts is decoded unless its key
    /// frame is already past (`.late`), or its pictures are larger than this box decodes in time
    /// while smaller ones are on their way (`tooLarge`: `.tooLarge`).
    @discardableResult
    public mutating func keyFrame(at time: Double?, heard: Double?, tooLarge: Bool = false) -> Verdict {
        let behind = time.flatMap { time in heard.map { time.isFinite && $0.isFinite ? $0 - time : 0 } } ?? 0
        let verdict: Verdict = behind > 0 ? .late : tooLarge ? .tooLarge : .whole
        skipping = verdict != .whole
        return verdict
    }

    /// How far past what is heard a picture may be before the rest of its group is given up
    /// (15 pictures at 30 fps).
    public static let giveUpBehind = 0.5

    /// A picture that is not a key frame, at timeline time `time`: true when the group it
    /// belongs to is given up now, the picture more than `giveUpBehind` past what is heard.
    /// A decoder that far behind within a group (pictures larger than the box decodes in
    /// time) would otherwise decode the whole group late, its sound dropped as old meanwhile
    /// (seconds of silence for a group of two seconds on a box decoding at a third of real
    /// time); skipped to the next key frame, it catches up at once.
    public mutating func picture(at time: Double?, heard: Double?) -> Bool {
        guard !skipping, let time, let heard, time.isFinite, heard.isFinite, heard - time > Self.giveUpBehind else { return false }
        skipping = true
        return true
    }

    public enum Verdict: Sendable, Equatable {
        case whole, late, tooLarge
    }
}
