/// The overlay's passing notices and when they go (times in milliseconds): the
/// "swipe up for more" hint, shown once per run after the first picture, once the
/// banner has gone; and the sound level, shown for a while after a volume or mute key.
public struct PassingNotices: Sendable, Equatable {
    public static let volumeMilliseconds = 3000
    public static let hintMilliseconds = 5000

    /// The hint shows until this time.
    public private(set) var hintUntil: Int?
    /// The hint has had its turn (it never comes back in this run).
    public private(set) var hintShown = false
    /// The sound level shows until this time.
    public private(set) var volumeUntil: Int?

    public init() {}

    /// A first picture came at `now`. The hint, when `allowed`, shows from the end of the
    /// banner (`bannerUntil`) for its time, twice that when it carries a note (`long`).
    public mutating func firstPicture(now: Int, bannerUntil: Int?, long: Bool, allowed: Bool) {
        guard !hintShown, allowed else { return }
        hintShown = true
        hintUntil = max(now, bannerUntil ?? 0) + Self.hintMilliseconds * (long ? 2 : 1)
    }

    /// The panel opened: the hint has done its job.
    public mutating func panelOpened() { hintUntil = nil }

    /// A volume or mute key at `now`.
    public mutating func volumeChanged(now: Int) { volumeUntil = now + Self.volumeMilliseconds }

    /// Notices whose time is over go.
    public mutating func expire(now: Int) {
        if let until = hintUntil, until <= now { hintUntil = nil }
        if let until = volumeUntil, until <= now { volumeUntil = nil }
    }

    public var showsHint: Bool { hintUntil != nil }
    public var showsVolume: Bool { volumeUntil != nil }
}
