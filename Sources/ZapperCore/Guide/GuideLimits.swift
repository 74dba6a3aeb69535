/// Bounds on what one guide may make zapper hold or do. Guides come from
/// servers nobody here controls, gzip makes a small download a huge document,
/// and a box reads its guide again every hour for months.
public enum GuideLimits {
    /// XML bytes read (after gzip), per read: a larger guide fails with a reason.
    public static let documentBytes = 512 << 20
    /// Characters kept of one title, sub-title, description, category or rating;
    /// the rest is dropped.
    public static let textCharacters = 4_096
    /// Texts of one kind kept per programme (titles in many languages, categories),
    /// and display names per channel.
    public static let textsPerElement = 16
    /// Programmes kept per channel (a fortnight of five-minute slots).
    public static let programmesPerChannel = 4_096
    /// Guide channels kept for a lineup channel's name (their `tvg-id` matched none).
    public static let channels = 100_000
    /// Problems kept per read (each is one line of the log at most); the rest are counted.
    public static let problems = 100
}
