/// The largest values a playlist may give. Playlists come from servers nobody
/// here controls: a value past these fails that playlist with its line and a
/// reason, and the arithmetic done with accepted values (counting segments on
/// from a sequence number, a range's end, reload periods in nanoseconds)
/// cannot overflow.
public enum HLSLimits {
    /// EXT-X-TARGETDURATION, seconds: the reload period of a live playlist.
    public static let targetDuration = 3_600
    /// An EXTINF duration, seconds (a whole programme in one segment still fits).
    public static let segmentDuration = 86_400.0
    /// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE (2^62: epoch
    /// milliseconds and nanoseconds fit; adding any segment count cannot overflow).
    public static let sequenceNumber: Int64 = 1 << 62
    /// Where an EXT-X-BYTERANGE may end (offset + length), bytes: 256 TiB.
    public static let byteRangeEnd = 1 << 48
    /// BANDWIDTH and AVERAGE-BANDWIDTH, bits per second (1 Tbit/s).
    public static let bandwidth = 1_000_000_000_000
    /// A side of RESOLUTION, pixels.
    public static let pictureSide = 1...16_384
    /// FRAME-RATE.
    public static let frameRate = 1_000.0
    /// EXT-X-START's TIME-OFFSET and HOLD-BACK, seconds either way.
    public static let timeOffset = 1_000_000_000.0
    /// Segments in one media playlist.
    public static let segments = 100_000
    /// Variants and renditions in one master playlist.
    public static let variants = 1_000
    /// EXT-X-DEFINE variables in one playlist.
    public static let definitions = 64
    /// A variable's value, UTF-8 bytes.
    public static let definitionValue = 4_096
    /// What substitution may make of one line (a URI line, or the values of one
    /// tag's attribute list), UTF-8 bytes.
    public static let substitutedLine = 16_384
}
