/// A judgement of this box's speed: the fewest pixels a picture had when its decoding was
/// found too slow (for one thread, `DecoderThreads`; for the box, `DecodeCeiling`). It holds
/// for a while, not for ever: a box that runs for months is judged in moments that are not
/// all alike (at its start the guide is parsed, both neighbours start and the fonts load at
/// once), and a judgement made in such a moment would keep it on frame threads, or on small
/// pictures, for the rest of its life. Each time it is made again after it lapsed it holds
/// twice as long (10 minutes, 20, 40, … a day at most): a box truly too slow is judged again
/// seldom, and each time at the cost of a group of pictures skipped.
public struct SpeedVerdict: Sendable, Equatable {
    /// How long the first judgement holds, seconds.
    public static let firstHold = 600.0
    /// The longest a judgement holds, seconds.
    public static let longestHold = 86_400.0

    /// The fewest pixels found too slow while the judgement holds (`pixels(at:)` lets it lapse).
    private var fewest: Int?
    /// When it lapses (seconds on the caller's clock).
    private var until = 0.0
    /// How long the judgement last made holds (one made again after a lapse: twice this).
    public private(set) var hold: Double
    private var lapsed = false

    public init(firstHold: Double = Self.firstHold) {
        hold = max(firstHold, 1)
    }

    /// Whether a judgement is held that `pixels(at:)` has not yet found lapsed.
    public var holds: Bool { fewest != nil }

    /// The fewest pixels found too slow, while that judgement holds at `now`; nil otherwise.
    public mutating func pixels(at now: Double) -> Int? {
        if fewest != nil, !(now < until) {
            fewest = nil
            lapsed = true
        }
        return fewest
    }

    /// Pictures of `pixels` were found too slow at `now`: true when that lowers the judgement
    /// (or makes it again after it lapsed). It then holds for `hold` seconds from now; made
    /// again after a lapse, for twice as long as the last time.
    @discardableResult
    public mutating func tooSlow(pixels: Int, at now: Double) -> Bool {
        let held = self.pixels(at: now)
        guard held.map({ pixels < $0 }) ?? true else { return false }
        if held == nil, lapsed {
            hold = min(hold * 2, Self.longestHold)
            lapsed = false
        }
        fewest = pixels
        until = now + hold
        return true
    }

    /// How long the judgement now held lasts, in words for the log ("10 minutes").
    public var holdInWords: String {
        let minutes = Int((hold / 60).rounded())
        return minutes >= 120 ? "\(minutes / 60) hours" : minutes == 1 ? "a minute" : "\(minutes) minutes"
    }
}
