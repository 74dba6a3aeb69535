import Foundation

/// Maps wall-clock time onto a live stream made from a pre-encoded loop.
///
/// Segment `s` covers `[s*d, (s+1)*d)` seconds since the Unix epoch, so the
/// media sequence advances in real time and is the same across restarts. It
/// plays loop segment `s mod K`; each loop restart (`s mod K == 0`) carries
/// EXT-X-DISCONTINUITY because the loop's timestamps start over.
public struct LiveTimeline: Sendable, Equatable {
    public let segmentSeconds: Int
    public let loopSegments: Int
    public let windowSegments: Int

    public init(segmentSeconds: Int, loopSegments: Int, windowSegments: Int) {
        precondition(segmentSeconds > 0 && loopSegments > 0 && windowSegments > 0)
        self.segmentSeconds = segmentSeconds
        self.loopSegments = loopSegments
        self.windowSegments = windowSegments
    }

    public init(catalog: ChannelCatalog) {
        self.init(segmentSeconds: catalog.segmentSeconds, loopSegments: catalog.loopSegments,
                  windowSegments: catalog.windowSegments)
    }

    /// The newest segment that is complete at `time` (seconds since the epoch).
    public func liveEdge(at time: Double) -> Int64 {
        Int64((time / Double(segmentSeconds)).rounded(.down)) - 1
    }

    /// The media sequence numbers a playlist written at `time` lists.
    public func window(at time: Double) -> ClosedRange<Int64> {
        let edge = liveEdge(at: time)
        return (edge - Int64(windowSegments) + 1)...edge
    }

    public func loopIndex(of sequence: Int64) -> Int {
        let k = Int64(loopSegments)
        return Int(((sequence % k) + k) % k)
    }

    public func startsLoop(_ sequence: Int64) -> Bool { loopIndex(of: sequence) == 0 }

    /// The discontinuity sequence number of a segment: how many loop restarts
    /// happened up to and including it.
    public func discontinuityNumber(of sequence: Int64) -> Int64 {
        let k = Int64(loopSegments)
        return sequence >= 0 ? sequence / k : -((-sequence + k - 1) / k)
    }

    /// EXT-X-DISCONTINUITY-SEQUENCE for a playlist whose first segment is `first`.
    /// A first segment that itself carries EXT-X-DISCONTINUITY adds one, so the
    /// tag is counted in the value the playlist implies for it.
    public func discontinuitySequence(first: Int64) -> Int64 {
        discontinuityNumber(of: first) - (startsLoop(first) ? 1 : 0)
    }

    public func programDate(of sequence: Int64) -> Date {
        Date(timeIntervalSince1970: Double(sequence) * Double(segmentSeconds))
    }

    /// A segment may be fetched from the moment it is complete until one more
    /// window length after it left the playlist, as a CDN keeps it a while.
    public func isServable(_ sequence: Int64, at time: Double) -> Bool {
        let window = window(at: time)
        return sequence <= window.upperBound && sequence > window.lowerBound - Int64(windowSegments)
    }
}
