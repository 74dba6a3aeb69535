/// A stream timestamp in seconds, or nil when it cannot be one. Timestamps
/// come from the stream (fMP4's `tfdt` is 64-bit: a hostile one is 9e18), and
/// the timeline, the A/V queues and the clock turn seconds into sample counts:
/// a time past `limit` is treated as no timestamp, so that arithmetic cannot overflow.
public enum StreamTime {
    /// About 31 years either way: MPEG-TS's 33 bits of 90 kHz ticks are 26.5 hours.
    public static let limit = 1e9

    public static func seconds(_ ticks: Int64, numerator: Int32, denominator: Int32) -> Double? {
        guard denominator != 0 else { return nil }
        let seconds = Double(ticks) * Double(numerator) / Double(denominator)
        guard seconds.isFinite, abs(seconds) <= limit else { return nil }
        return seconds
    }
}
