/// Follows a live media playlist across reloads (RFC 8216 §6.3, 8216bis
/// §6.3.3): where to start, which segments are new, which expired before we
/// got to them, and when to reload.
public struct LiveSegmentCursor: Sendable, Equatable {
    /// The media sequence number of the next segment to fetch.
    public private(set) var nextSequence: Int64?
    /// Whether the last reload brought anything new.
    public private(set) var lastReloadChanged = true
    /// When the playlist last changed (seconds on the caller's clock).
    public private(set) var lastChange: Double?
    public private(set) var targetDuration = 0
    public private(set) var ended = false
    private var lastSignature: Signature?

    private struct Signature: Equatable, Sendable {
        var first: Int64
        var count: Int
        var endList: Bool
    }

    public init() {}

    public struct Update: Equatable, Sendable {
        /// Segments to fetch now, in order.
        public var segments: [HLSSegment] = []
        /// Segments that left the playlist before they were fetched.
        public var expired: ClosedRange<Int64>?
        /// The playlist started over (its sequence went backwards): playback restarts.
        public var restarted = false
    }

    /// Takes a freshly loaded playlist; returns what became available.
    public mutating func update(_ playlist: HLSMediaPlaylist, at now: Double) -> Update {
        targetDuration = max(playlist.targetDuration, 1)
        let signature = Signature(first: playlist.mediaSequence, count: playlist.segments.count, endList: playlist.endList)
        lastReloadChanged = signature != lastSignature
        if lastReloadChanged { lastChange = now }
        let previous = lastSignature
        lastSignature = signature
        ended = playlist.endList

        var update = Update()
        guard let first = playlist.segments.first?.sequence, let last = playlist.segments.last?.sequence else { return update }
        let wentBackwards = previous.map { playlist.mediaSequence < $0.first } ?? false
        if nextSequence == nil || wentBackwards {
            update.restarted = nextSequence != nil
            nextSequence = Self.startSequence(playlist)
        }
        var next = nextSequence!
        if next < first {
            update.expired = next...(first - 1)
            next = first
        }
        if next > last + 1 {
            // Ahead of what the server lists (it lost segments): pick up at its live edge.
            update.restarted = true
            next = Self.startSequence(playlist)
        }
        update.segments = playlist.segments.filter { $0.sequence >= next }
        nextSequence = max(next, (update.segments.last?.sequence ?? next - 1) + 1)
        return update
    }

    /// Continues at `sequence` on the next playlist (after a variant switch:
    /// variants' media sequence numbers line up).
    public mutating func resume(at sequence: Int64) {
        nextSequence = sequence
        lastSignature = nil
    }

    /// The earliest moment to reload, for a load that began at `loadStarted`:
    /// a target duration after it when the playlist changed, half of one when
    /// it did not (RFC 8216 §6.3.4).
    public func nextReload(loadStarted: Double) -> Double {
        loadStarted + Double(targetDuration) * (lastReloadChanged ? 1 : 0.5)
    }

    /// The playlist has not moved for `targetDurations` target durations.
    public func isStalled(at now: Double, targetDurations: Double = 3) -> Bool {
        guard let lastChange, !ended else { return false }
        return now - lastChange > Double(targetDuration) * targetDurations
    }

    /// The segment to start a live playlist at: EXT-X-START when present,
    /// else no closer than HOLD-BACK (default three target durations) to the end.
    public static func startSequence(_ playlist: HLSMediaPlaylist) -> Int64 {
        let segments = playlist.segments
        guard let firstSequence = segments.first?.sequence else { return playlist.mediaSequence }
        if !playlist.isLive && playlist.start == nil { return firstSequence }
        let total = playlist.totalDuration
        let position: Double = if let start = playlist.start {
            start.timeOffset < 0 ? max(0, total + start.timeOffset) : min(start.timeOffset, total)
        } else {
            max(0, total - (playlist.holdBack ?? Double(3 * max(playlist.targetDuration, 1))))
        }
        // The last segment that starts at or before the position.
        var elapsed = 0.0
        var chosen = firstSequence
        for segment in segments {
            if elapsed > position + 0.000_1 { break }
            chosen = segment.sequence
            elapsed += segment.duration
        }
        return chosen
    }
}
