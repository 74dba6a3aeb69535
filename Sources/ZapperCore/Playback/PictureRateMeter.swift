/// A tune's picture rate, from the times of its first pictures on screen: told once per tune
/// (`[display] match-frame-rate` switches the display's mode at most once a flip).
///
/// The rules: the median gap of the first `intervals` gaps between pictures (a dropped
/// picture or a discontinuity does not sway it), told once, as pictures a second; gaps that
/// are no picture's (none, or over half a second) are not counted; `reset` starts a new tune.
public struct PictureRateMeter: Sendable, Equatable {
    public static let intervals = 8
    private var last: Double?
    private var gaps: [Double] = []
    private var told = false

    public init() {}

    public mutating func reset() { self = PictureRateMeter() }

    /// Counts a picture shown at timeline time `time`; the rate, the one time it is known.
    public mutating func add(_ time: Double) -> Double? {
        defer { last = time }
        guard !told, let last, time.isFinite else { return nil }
        let gap = time - last
        guard gap > 0.001, gap < 0.5 else { return nil }
        gaps.append(gap)
        guard gaps.count >= Self.intervals else { return nil }
        told = true
        return 1 / gaps.sorted()[gaps.count / 2]
    }
}
