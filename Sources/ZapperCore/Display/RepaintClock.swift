/// When the frame loop starts drawing the next frame: as late as still makes
/// the next vblank (a "repaint window" before it, as compositors keep), so
/// whatever arrived before then — a key above all — is on screen at that
/// vblank, not the one after.
///
/// The vblank period is the shortest of the recent flip intervals (flips
/// skipped because nothing changed only lengthen intervals); the window is
/// a long recent draw plus a margin. Times are seconds on one monotonic
/// clock. When the window fills the period (a slow machine) or nothing is
/// known yet, drawing starts at once, as without this clock.
public struct RepaintClock: Sendable {
    public var margin: Double
    private var flips: [Double] = []
    private var draws: [Double] = []
    private static let flipsKept = 9
    private static let drawsKept = 60

    public init(margin: Double = 0.002) {
        self.margin = margin
    }

    /// A frame hit the screen at `time`.
    public mutating func flipped(at time: Double) {
        if let last = flips.last, time <= last { flips.removeAll() }  // a clock that went back: start over
        flips.append(time)
        if flips.count > Self.flipsKept { flips.removeFirst(flips.count - Self.flipsKept) }
    }

    /// Drawing a frame took `seconds`, from waking to the frame being queued.
    public mutating func drew(seconds: Double) {
        draws.append(max(0, seconds))
        if draws.count > Self.drawsKept { draws.removeFirst(draws.count - Self.drawsKept) }
    }

    /// The vblank period, once two flips are known.
    public var period: Double? {
        zip(flips, flips.dropFirst()).map { $1 - $0 }.min()
    }

    /// How long before a vblank drawing starts: the 95th percentile of the
    /// recent draws (one slow turn, a tune starting or a snapshot written, is
    /// a frame late once rather than the window wide for a second) plus the margin.
    public var window: Double? {
        guard !draws.isEmpty else { return nil }
        let sorted = draws.sorted()
        return sorted[min(sorted.count - 1, sorted.count * 95 / 100)] + margin
    }

    /// When to start drawing the frame for the vblank after the last flip;
    /// nil: start now.
    public var nextDrawStart: Double? {
        guard let last = flips.last, let period, let window, window < period else { return nil }
        return last + period - window
    }

    /// The first draw start after `now` (a turn that drew nothing waits for the next vblank's
    /// draw start, not a fixed tick); nil: nothing known, wait a tick.
    public func drawStart(after now: Double) -> Double? {
        guard let first = nextDrawStart, let period else { return nil }
        guard first <= now else { return first }
        return first + ((now - first) / period + 1).rounded(.down) * period
    }
}
