/// Whether a decoder decodes a group of pictures (a key frame and those up to the next) or
/// skips it. A box that decodes more slowly than the stream plays falls behind what is heard:
/// its sound, decoded late, is dropped as old, and its pictures are dropped as late. Skipping
/// the pictures of a group that starts behind (none of them is sent to the decoder, which goes
/// on at a later key frame; its key frame's picture would only be dropped as late) brings it
/// back in time, and the sound goes on while the picture holds. So are groups larger than the
/// box was found to decode in time (`DecodeCeiling`), fetched before it was found, while
/// smaller ones are on their way.
public struct CatchUp: Sendable {
    /// Whether the group at hand is skipped.
    public private(set) var skipping = false
    /// Whether the group at hand is skipped as late because of the decoder (its segment had
    /// waited for it, or it is slow), not because the bytes came late: the box was behind.
    public private(set) var decoderBehind = false

    /// The share of its play time a decoder may have spent on the last group and still count
    /// as fast: it catches up on a few late pictures within the next.
    public let fastShare: Double

    public init(fastShare: Double = 0.5) {
        self.fastShare = fastShare.isNaN ? 0.5 : fastShare
    }

    /// How far past a key frame may be, its segment just come, and its group still decoded
    /// (15 pictures at 30 fps).
    public static let slack = 0.5
    /// The decoder's busy seconds and the key frame's time where the last decoded group began.
    private var groupStart: (busy: Double, time: Double)?

    /// A key frame at timeline time `time`, with the clock at `heard` (what the sound output
    /// takes from now; nil before it takes any), the decoder busy `decoderBusy` seconds so far
    /// (0 for none yet): the group it starts is decoded unless its key frame is already past
    /// (`.late`), or its pictures are larger than this box decodes in time while smaller ones
    /// are on their way (`tooLarge`: `.tooLarge`).
    ///
    /// Past by a little, the decoder fast (the last group took it under `fastShare` of its play
    /// time) and having waited for the segment (`waiting` false), the bytes came late, not the
    /// decoder, and the group is decoded: a channel played at the live edge (a promoted warm
    /// neighbour plays from the newest segment) gets each segment as its sound begins, its key
    /// frame a picture or two behind what is heard, and a fast decoder catches up within the
    /// group. Skipping would skip every group. A slow decoder's group is skipped: on a box too
    /// slow for the stream that keeps the sound going.
    @discardableResult
    public mutating func keyFrame(at time: Double?, heard: Double?, waiting: Bool, decoderBusy: Double = 0,
                                  tooLarge: Bool = false) -> Verdict {
        let behind = time.flatMap { time in heard.map { time.isFinite && $0.isFinite ? $0 - time : 0 } } ?? 0
        var fast = false
        if let start = groupStart, let time, time.isFinite, time > start.time, decoderBusy >= start.busy {
            fast = (decoderBusy - start.busy) / (time - start.time) < fastShare
        }
        let late = behind > 0 && (waiting || !fast || behind > Self.slack)
        let verdict: Verdict = late ? .late : tooLarge ? .tooLarge : .whole
        skipping = verdict != .whole
        decoderBehind = late && (waiting || !fast)
        groupStart = nil
        if verdict == .whole, let time, time.isFinite, decoderBusy.isFinite { groupStart = (decoderBusy, time) }
        return verdict
    }

    public enum Verdict: Sendable, Equatable {
        case whole, late, tooLarge
    }
}
