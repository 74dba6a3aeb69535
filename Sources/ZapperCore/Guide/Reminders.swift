import Foundation

/// A reminder on a programme to come: the channel by its key (`LineupChannel.stateKey`, so a
/// renumbered lineup keeps it), the programme by its start, and its title for the notice.
public struct Reminder: Sendable, Equatable, Codable {
    public var channel: String
    public var start: Date
    public var title: String

    public init(channel: String, start: Date, title: String) {
        self.channel = channel
        self.start = start
        self.title = title
    }

    enum CodingKeys: String, CodingKey { case channel, start, title }

    /// `start` as whole seconds since 1970 in the state file.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        channel = try container.decode(String.self, forKey: .channel)
        let seconds = try container.decode(Int.self, forKey: .start)
        guard (0...253_402_300_799).contains(seconds) else {
            throw DecodingError.dataCorruptedError(forKey: .start, in: container, debugDescription: "not a time")
        }
        start = Date(timeIntervalSince1970: TimeInterval(seconds))
        title = String(try container.decode(String.self, forKey: .title).prefix(200))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channel, forKey: .channel)
        try container.encode(Int(start.timeIntervalSince1970), forKey: .start)
        try container.encode(title, forKey: .title)
    }
}

/// The reminders set in the guide, soonest first; at most `limit` (the oldest set give way).
/// Their notice comes `notice` before the start and stays until `grace` after it.
public struct Reminders: Sendable, Equatable {
    public static let limit = 64
    public static let notice: TimeInterval = 60
    public static let grace: TimeInterval = 60
    public private(set) var entries: [Reminder]

    public init(_ entries: [Reminder] = []) {
        var seen = Set<String>()
        self.entries = Array(entries.filter { seen.insert("\($0.channel)@\($0.start.timeIntervalSince1970)").inserted }
            .sorted { $0.start < $1.start }.prefix(Self.limit))
    }

    public func has(channel: LineupChannel, start: Date) -> Bool {
        entries.contains { $0.channel == channel.stateKey && $0.start == start }
    }

    /// Sets a reminder on the programme, or clears the one set; returns whether one is set now.
    @discardableResult
    public mutating func toggle(channel: LineupChannel, _ programme: Programme) -> Bool {
        if let index = entries.firstIndex(where: { $0.channel == channel.stateKey && $0.start == programme.start }) {
            entries.remove(at: index)
            return false
        }
        entries.append(Reminder(channel: channel.stateKey, start: programme.start, title: programme.title))
        entries.sort { $0.start < $1.start }
        if entries.count > Self.limit { entries.removeLast(entries.count - Self.limit) }
        return true
    }

    /// The reminder whose notice is up at `now` (the soonest), if any.
    public func due(at now: Date) -> Reminder? {
        entries.first { now >= $0.start - Self.notice && now < $0.start + Self.grace }
    }

    /// Takes away and returns the reminders whose time is over at `now`.
    public mutating func removeOver(at now: Date) -> [Reminder] {
        let over = entries.filter { now >= $0.start + Self.grace }
        entries.removeAll { now >= $0.start + Self.grace }
        return over
    }

    public mutating func remove(_ reminder: Reminder) {
        entries.removeAll { $0 == reminder }
    }
}
