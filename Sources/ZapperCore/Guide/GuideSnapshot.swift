import Foundation

/// The guide as last read, kept on disk (the state directory) so a box that starts without a
/// network still shows now and next and the guide grid. Read back forgivingly: a file that
/// does not decode is no snapshot, and at most `maxProgrammes` are kept either way.
public struct GuideSnapshot: Codable, Sendable {
    public static let maxProgrammes = 400_000

    public var readAt: Date
    public var programmes: [Programme]
    public var channels: [GuideChannel]

    public init(guide: Guide, readAt: Date) {
        self.readAt = readAt
        programmes = Array(guide.programmesByChannel.keys.sorted().lazy.flatMap { guide.programmes(channelID: $0) }.prefix(Self.maxProgrammes))
        channels = guide.channels.keys.sorted().compactMap { guide.channels[$0] }
    }

    /// The guide again, within `window`.
    public func guide(window: GuideWindow) -> Guide {
        Guide(programmes: Array(programmes.prefix(Self.maxProgrammes)), channels: channels, window: window)
    }
}
