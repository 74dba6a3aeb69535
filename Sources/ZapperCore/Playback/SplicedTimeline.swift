/// One timeline (seconds) across a channel's discontinuities. A stream's time
/// plus `offset` is timeline time; at each discontinuity (new timestamps, as where
/// an ad or a looped origin starts again) the offset moves so the new part
/// continues from where the last one ended (`end`), and the timeline runs on
/// for months. Frames that come without a timestamp follow their stream's last one.
public struct SplicedTimeline {
    /// Stream time + offset = timeline time.
    public private(set) var offset = 0.0
    /// How far the frames placed so far reach.
    public private(set) var end: Double?
    private var discontinuity: Int64?
    private var spliceDue = false
    private var anchored = false
    /// Each stream's next frame time, for frames without a timestamp.
    private var expected: [Int32: Double] = [:]

    public init() {}

    /// A segment of discontinuity `sequence` comes next. True when it starts a new
    /// discontinuity after another: a splice (the decoders' last frames of the old
    /// timestamps come out first, and they start afresh).
    public mutating func beginSegment(discontinuity sequence: Int64) -> Bool {
        let spliced = discontinuity != nil && discontinuity != sequence
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
        guard let time = seconds.map({ $0 + offset }) ?? expected[stream], time.isFinite else { return nil }
        let next = time + (duration.isFinite && duration > 0 ? duration : 0)
        expected[stream] = next
        end = max(end ?? next, next)
        return time
    }
}
