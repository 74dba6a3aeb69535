/// Bounds on a lineup: it may come from a provider nobody here controls.
public enum LineupLimits {
    /// The lineup's text, bytes (a 100,000-channel list is about 30 MB).
    public static let bytes = 64 << 20
    /// Channels read; the rest of the list is skipped, saying so.
    public static let channels = 100_000
    /// Characters of a channel's name kept (a card shows a few dozen).
    public static let nameCharacters = 200
    /// Problems kept, each one line of the log; the rest are counted.
    public static let problems = 200
    /// Guide URLs read from `url-tvg` and `x-tvg-url` together.
    public static let guides = 8
    /// Sources of one merged channel; further duplicates stay channels of their own.
    public static let sourcesPerChannel = 8
}
