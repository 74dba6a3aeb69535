/// A subtitle cue as the player times it.
public struct SubtitleCue: Sendable, Equatable {
    /// Seconds on the MPEG-TS PTS timeline (90 kHz PTS / 90 000, modulo 2^33
    /// ticks), the clock of the video's own packets; see
    /// `WebVTTParser.unwrap(_:near:)` for a PTS already past a wrap.
    public var start: Double
    public var end: Double
    /// Plain text, lines separated by "\n".
    public var text: String
    /// The media sequence and discontinuity sequence numbers of the segment it
    /// came in: they match the video's segments, so a player that shifts each
    /// discontinuity's timestamps can shift the cues alike.
    public var sequence: Int64
    public var discontinuitySequence: Int64

    public init(start: Double, end: Double, text: String, sequence: Int64, discontinuitySequence: Int64) {
        self.start = start
        self.end = end
        self.text = text
        self.sequence = sequence
        self.discontinuitySequence = discontinuitySequence
    }
}
