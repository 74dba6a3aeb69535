/// The leveller's gain per channel (by `LineupChannel.stateKey`), so a flip back starts at
/// the level the channel last needed. The most recent first, at most `limit` channels (a
/// 10,000-channel lineup does not grow the state file without end); gains out of range are
/// clamped, and ones that are not numbers dropped, so a hand-edited state file cannot upset it.
public struct LevelMemory: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var channel: String
        public var gainDB: Double
    }

    public static let limit = 256
    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        var seen = Set<String>()
        self.entries = Array(entries.filter { $0.gainDB.isFinite && seen.insert($0.channel).inserted }
            .map { Entry(channel: $0.channel, gainDB: Leveller.clamp($0.gainDB)) }.prefix(Self.limit))
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Entry].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }

    public func gain(for channel: String) -> Double? {
        entries.first { $0.channel == channel }?.gainDB
    }

    /// The middle of the gains remembered (nil: none): where a channel not heard before starts.
    public var typicalGain: Double? {
        guard !entries.isEmpty else { return nil }
        let sorted = entries.map(\.gainDB).sorted()
        return sorted[sorted.count / 2]
    }

    /// Remembers `gainDB` for `channel`, as the most recent.
    public mutating func remember(_ gainDB: Double, for channel: String) {
        guard gainDB.isFinite else { return }
        entries.removeAll { $0.channel == channel }
        entries.insert(Entry(channel: channel, gainDB: Leveller.clamp(gainDB)), at: 0)
        if entries.count > Self.limit { entries.removeLast(entries.count - Self.limit) }
    }
}
