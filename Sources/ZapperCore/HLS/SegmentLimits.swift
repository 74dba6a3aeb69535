/// Bounds on what a channel's segments may cost. Segments come from servers
/// nobody here controls: a body that never ends, a playlist of thousands of
/// segments, a byte a second. Each segment has a byte cap and a deadline, and
/// the segments fetched ahead of the decoder are bounded, the fetcher waiting
/// for room.
public enum SegmentLimits {
    /// A segment's cap is this many times what its variant's BANDWIDTH allows for its duration…
    public static let bandwidthFactor = 3.0
    /// …and never less than this (a BANDWIDTH that understates)…
    public static let floorBytes = 8 << 20
    /// …nor more than this, whatever the playlist says.
    public static let ceilingBytes = 64 << 20
    /// Assumed when a lone media playlist gives no BANDWIDTH (bits per second).
    public static let unknownBandwidth = 25_000_000

    /// Segments waiting for the decoder (fetched or arriving, not yet being decoded).
    public static let waitingSegments = 4
    /// Seconds of media waiting for the decoder.
    public static let waitingSeconds = 30.0
    /// Bytes waiting for the decoder.
    public static let waitingBytes = 96 << 20

    /// A segment's body must have arrived this many times its duration after its request…
    public static let deadlineFactor = 2.0
    /// …but is given at least this long (seconds).
    public static let minimumDeadline = 10.0

    /// The most bytes a segment of `duration` seconds may have (`bandwidth` in bits per second).
    public static func byteCap(duration: Double, bandwidth: Int?) -> Int {
        let rate = Double(bandwidth ?? unknownBandwidth)
        let allowed = duration * rate / 8 * bandwidthFactor
        guard allowed.isFinite, allowed < Double(ceilingBytes) else { return ceilingBytes }
        return max(floorBytes, Int(allowed))
    }

    /// How long a segment of `duration` seconds may take to arrive whole.
    public static func deadline(duration: Double) -> Double {
        max(minimumDeadline, duration * deadlineFactor)
    }

    /// Whether another segment may be fetched with this much waiting.
    public static func hasRoom(segments: Int, seconds: Double, bytes: Int) -> Bool {
        segments < waitingSegments && seconds < waitingSeconds && bytes < waitingBytes
    }
}
