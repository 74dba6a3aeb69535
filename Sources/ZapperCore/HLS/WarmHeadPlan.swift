/// What a warm neighbour keeps of its channel so that a flip to it shows a full-quality
/// picture at once: the head of each new segment (its first key frame, a Range request) of a
/// variant that the measured bandwidth carries, within a budget of bits per second. At the
/// promotion the rest of that segment follows the head, so the motion goes on from the picture
/// shown. This plans which variant and how much to ask for; the session does the fetching.
///
/// The variant: the highest whose BANDWIDTH fits `safety` of the bandwidth measured lately
/// (none measured: the lowest), whose head arrives within `maxHeadSeconds` at that bandwidth, and
/// whose heads, as seen lately on any channel with a variant of its kind (`heads`, by `keys`: its
/// picture height, say), fit the budget for one segment's duration; a head that does not steps
/// the next one down a variant. Heads come no faster than the budget pays for them (the playlist
/// reloads count too), the first at once.
public struct WarmHeadPlan: Sendable, Equatable {
    /// The neighbour's budget, bits per second (both neighbours together: twice this).
    public static let budget = 500_000
    /// Fraction of the measured bandwidth the variant may need.
    public static let safety = 0.7
    /// A head must take no longer than this at the measured bandwidth: a flip soon after the
    /// neighbour starts (or after its newest segment appears) then still finds it in.
    public static let maxHeadSeconds = 0.125
    /// The most bytes a head may take before it is given up (no key frame's end in sight).
    public static let maxHeadBytes = 2 << 20
    /// Asked for beyond the size a variant's last head had (a bigger key frame then costs no second request).
    public static let margin = 8 << 10

    /// The variants' BANDWIDTHs, lowest first.
    public let bandwidths: [Int]
    /// What each variant's heads are remembered by, across channels (its picture height, else its BANDWIDTH).
    public let keys: [Int]
    /// The variant (an index into `bandwidths`) of the next head.
    public private(set) var rank: Int
    /// The bytes the last head of a variant of each kind (`keys`) needed (to its key frame's
    /// end), shared by the lineup's channels, which are mostly encoded alike.
    public private(set) var heads: [Int: Int]
    /// How many kinds `heads` remembers.
    public static let maxRemembered = 64
    /// When the budget allows the next head (seconds on the caller's clock).
    private var nextAllowed: Double

    /// - Parameters:
    ///   - bandwidths: the variants' BANDWIDTHs, lowest first (a lone media playlist: one, its own or 0).
    ///   - estimate: bits per second measured lately, nil when nothing was.
    ///   - keys: what each variant's heads are remembered by (nil: its BANDWIDTH).
    ///   - heads: head sizes seen lately, by key.
    public init(bandwidths: [Int], keys: [Int]? = nil, estimate: Double?, heads: [Int: Int] = [:], now: Double) {
        let bandwidths = bandwidths.isEmpty ? [0] : bandwidths
        self.bandwidths = bandwidths
        self.keys = keys.flatMap { $0.count == bandwidths.count ? $0 : nil } ?? bandwidths
        self.heads = heads
        nextAllowed = now
        rank = 0
        guard let estimate, estimate > 0 else { return }
        rank = bandwidths.indices.last {
            Double(bandwidths[$0]) <= estimate * Self.safety && Double(expectedHead($0) * 8) / estimate <= Self.maxHeadSeconds
        } ?? 0
    }

    /// The segment whose head a warm neighbour keeps: the one before the newest (gaps aside),
    /// so that a flip plays one segment behind the live edge and the next segment is listed
    /// before its turn comes. Kept at the newest, the next one would appear only as its sound
    /// began (a reload a target duration later finds it), and every segment would come late.
    /// A playlist of one segment: that one.
    public static func headSegment(of segments: [HLSSegment]) -> HLSSegment? {
        segments.dropLast().last(where: { !$0.gap }) ?? segments.last(where: { !$0.gap })
    }

    /// Bytes the budget allows for one segment of `duration` seconds.
    static func perSegment(_ duration: Double) -> Double { Double(budget) / 8 * max(duration, 0.5) }

    /// A head may need this many times the budget's bytes for one segment: it then skips a
    /// segment now and then, the budget kept on average.
    public static let overrun = 1.25

    /// A key frame is commonly about this many seconds of its stream's BANDWIDTH: the size a
    /// variant's heads are taken to have before one is seen.
    public static let keyFrameSeconds = 0.35

    /// The bytes a head of variant `rank` needs: as seen lately, else as its BANDWIDTH (any
    /// number a playlist gives) suggests; never more than `maxHeadBytes`.
    func expectedHead(_ rank: Int) -> Int {
        let guess = Double(max(bandwidths[rank], 0)) * Self.keyFrameSeconds / 8
        return min(heads[keys[rank]] ?? Int(min(guess, Double(Self.maxHeadBytes))), Self.maxHeadBytes)
    }

    /// Steps down past variants whose heads do not fit the budget for one segment of
    /// `segmentDuration` seconds (the playlist's target duration).
    public mutating func fit(segmentDuration: Double) {
        while rank > 0, Double(expectedHead(rank) + Self.margin) > Self.perSegment(segmentDuration) * Self.overrun { rank -= 1 }
    }

    /// How far ahead of the budget a head may come (the reloads between two heads run it a
    /// little into debt).
    public static let slack = 0.25

    /// Whether the budget allows another head now.
    public func mayFetch(at now: Double) -> Bool { now + Self.slack >= nextAllowed }

    /// Bytes to ask for first for the current variant's head: what it is expected to need and a
    /// margin (at least 32 kB).
    public var firstRequest: Int { min(max(expectedHead(rank) + Self.margin, 32 << 10), Self.maxHeadBytes) }

    /// Bytes spent on something else (a playlist reload) at `now`.
    public mutating func spent(_ bytes: Int, at now: Double) {
        nextAllowed = max(nextAllowed, now) + Double(max(bytes, 0)) * 8 / Double(Self.budget)
    }

    /// A head of a segment of `duration` seconds came at `now`: `bytes` fetched, of which the key
    /// frame `needed` (nil: no key frame was whole, given up).
    public mutating func fetchedHead(_ bytes: Int, needed: Int?, segmentDuration: Double, at now: Double) {
        if heads[keys[rank]] == nil, heads.count >= Self.maxRemembered { heads.removeAll() }
        heads[keys[rank]] = needed ?? bytes
        spent(bytes, at: now)
        fit(segmentDuration: segmentDuration)
    }
}
