/// One timeline (seconds) across a channel's discontinuities. A stream's time
/// plus `offset` is timeline time; at each discontinuity (new timestamps, as where
/// an ad or a looped origin starts again) the offset moves so the new part
/// continues from where the last one ended (`end`), and the timeline runs on
/// for months. Frames that come without a timestamp follow their stream's last one.
///
/// A continuous stream (a raw MPEG-TS connection) has no discontinuity tags, yet its
/// clock jumps when the server's encoder or source starts again: a frame more than
/// `forwardJump` past where its stream's next frame was due, or more than `backwardJump`
/// before it, is mended: placed where it was due, and its stream's later frames with it.
/// The other streams of that clock, jumping by about as much just after, take the same
/// correction, so picture and sound stay in step as the new clock has them.
public struct SplicedTimeline {
    /// Seconds ahead of where a stream's next frame was due that are a jump, not a gap in a live stream.
    public static let forwardJump = 3.0
    /// Seconds behind it: a live stream's frames never go back.
    public static let backwardJump = 0.5

    /// Stream time + offset = timeline time.
    public private(set) var offset = 0.0
    /// How far the frames placed so far reach.
    public private(set) var end: Double?
    private var discontinuity: Int64?
    private var spliceDue = false
    private var anchored = false
    /// Each stream's next frame time, for frames without a timestamp.
    private var expected: [Int32: Double] = [:]
    /// Whether jumps are mended (a continuous stream), each stream's correction so far,
    /// and the latest one taken, which another stream jumping by about as much adopts.
    private var mendsJumps = false
    private var correction: [Int32: Double] = [:]
    private var latestCorrection: Double?
    /// Jumps mended so far.
    public private(set) var jumps = 0

    public init() {}

    /// The programme changed (a new PMT) and `streams` are new to it or back in it: where their
    /// frames were due before is no jump to mend (a PID back after ten seconds away is not ten
    /// seconds late); they take the latest correction, as the rest of the programme's clock has it.
    public mutating func forget(streams: [Int32]) {
        for stream in streams {
            expected[stream] = nil
            correction[stream] = latestCorrection
        }
    }

    /// A segment of discontinuity `sequence` comes next (`stream`: a continuous stream,
    /// whose clock jumps are mended). True when it starts a new discontinuity after
    /// another: a splice (the decoders' last frames of the old timestamps come out first,
    /// and they start afresh).
    public mutating func beginSegment(discontinuity sequence: Int64, stream: Bool = false) -> Bool {
        let spliced = discontinuity != nil && discontinuity != sequence
        if discontinuity != sequence {
            correction.removeAll()
            latestCorrection = nil
        }
        mendsJumps = stream
        discontinuity = sequence
        spliceDue = spliceDue || spliced
        anchored = false
        return spliced
    }

    /// The first timestamp of the segment (`seconds`, stream time): the first segment, and the
    /// first after a splice, place it at the timeline's end. Later calls for the segment do nothing;
    /// true for the call that anchored it (the offset is then the discontinuity's).
    @discardableResult
    public mutating func anchor(firstTime seconds: Double) -> Bool {
        guard !anchored else { return false }
        anchored = true
        if spliceDue || end == nil {
            offset = (end ?? seconds) - seconds
            spliceDue = false
        }
        return true
    }

    /// A feed whose discontinuities another timeline placed (a separate audio rendition
    /// follows the picture's): a segment of discontinuity `sequence`, which sits at `offset`.
    /// True at a splice, as `beginSegment`.
    public mutating func follow(discontinuity sequence: Int64, offset: Double) -> Bool {
        let spliced = discontinuity != nil && discontinuity != sequence
        if discontinuity != sequence {
            // New timestamps: a frame without one cannot follow the old ones.
            expected.removeAll()
            discontinuity = sequence
        }
        self.offset = offset
        return spliced
    }

    /// Where a frame of `stream` lasting `duration` seconds goes: its stream time
    /// `seconds` on the timeline, else right after the stream's last frame; nil when
    /// there is nothing to place it by.
    public mutating func place(stream: Int32, seconds: Double?, duration: Double) -> Double? {
        var stamped = seconds.map { $0 + offset + (correction[stream] ?? 0) }
        if mendsJumps, let time = stamped, time.isFinite, let due = expected[stream],
           time - due > Self.forwardJump || due - time > Self.backwardJump {
            var total = (correction[stream] ?? 0) + (due - time)
            if let latest = latestCorrection, abs(latest - total) < Self.forwardJump { total = latest }
            stamped = time - (correction[stream] ?? 0) + total
            correction[stream] = total
            latestCorrection = total
            jumps += 1
        }
        guard let time = stamped ?? expected[stream], time.isFinite else { return nil }
        let next = time + (duration.isFinite && duration > 0 ? duration : 0)
        expected[stream] = next
        end = max(end ?? next, next)
        return time
    }
}
