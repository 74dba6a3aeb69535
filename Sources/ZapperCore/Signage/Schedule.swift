import Foundation

/// Day-parting: `[[schedule]]` entries of the configuration, each on some weekdays from one
/// time of day to another in the box's time zone (overnight when `to` is earlier than
/// `from`; the whole day when they are equal), setting a channel, the sound, the panel, or
/// standby while it applies. Times are compared as the wall clock reads them, so daylight
/// saving is the calendar's business: an entry from 02:30 starts at 03:00 on the night the
/// clocks skip that half hour.
public struct ScheduleEntry: Sendable, Equatable {
    /// Calendar weekdays: 1 Sunday … 7 Saturday.
    public var days: Set<Int>
    /// Minutes since midnight.
    public var from: Int
    public var to: Int
    public var channel: Int?
    public var volume: Int?
    public var muted: Bool?
    /// false: the panel (and the guide) never opens while it applies.
    public var panel: Bool?
    public var standby: Bool

    public init(days: Set<Int>, from: Int, to: Int, channel: Int? = nil, volume: Int? = nil, muted: Bool? = nil,
                panel: Bool? = nil, standby: Bool = false) {
        self.days = days
        self.from = from
        self.to = to
        self.channel = channel
        self.volume = volume
        self.muted = muted
        self.panel = panel
        self.standby = standby
    }

    /// Whether it applies at a wall-clock `weekday` and `minute` of the day.
    public func applies(weekday: Int, minute: Int) -> Bool {
        let yesterday = weekday == 1 ? 7 : weekday - 1
        if from < to { return days.contains(weekday) && minute >= from && minute < to }
        return (days.contains(weekday) && minute >= from) || (days.contains(yesterday) && minute < to)
    }

    /// "mon", "weekdays", "weekends", "daily" … → weekdays.
    public static func days(_ words: [String]) -> Set<Int>? {
        let names = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]
        var days = Set<Int>()
        for word in words.map({ $0.lowercased() }) {
            switch word {
            case "daily", "every day": days.formUnion(1...7)
            case "weekdays": days.formUnion(2...6)
            case "weekends": days.formUnion([1, 7])
            default:
                guard let day = names[String(word.prefix(3))], word.count >= 3,
                      "sunday monday tuesday wednesday thursday friday saturday".contains(word) else { return nil }
                days.insert(day)
            }
        }
        return days.isEmpty ? nil : days
    }

    /// "07:30" → 450; nil for anything else (24:00 is not a time of day).
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
        return hours * 60 + minutes
    }
}

/// What the entries that apply now add up to (a later entry wins where two set the same thing).
public struct ScheduleState: Sendable, Equatable {
    public var channel: Int?
    public var volume: Int?
    public var muted: Bool?
    public var panel: Bool?
    public var standby = false
    public init() {}
}

/// The schedule as the player follows it: which entries apply, and what changed since the
/// last look. The first look (at start) applies what applies then, as a change of all; the
/// caller tells an edge from a start by `atStart` (the TV is woken or put to standby only at edges).
public struct ScheduleWatcher: Sendable, Equatable {
    public let entries: [ScheduleEntry]
    public let timeZone: TimeZone
    private var applying: [Int]?

    public init(entries: [ScheduleEntry], timeZone: TimeZone = .current) {
        self.entries = entries
        self.timeZone = timeZone
    }

    public struct Change: Sendable, Equatable {
        /// The entries that began and ended (indices), and the sum of those that apply now.
        public var began: [Int]
        public var ended: [Int]
        public var state: ScheduleState
        public var atStart: Bool
    }

    /// The indices of the entries that apply at `date`.
    public func applying(at date: Date) -> [Int] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return entries.indices.filter { entries[$0].applies(weekday: parts.weekday ?? 1, minute: minute) }
    }

    /// A change when the entries that apply differ from the last look (always at the first).
    public mutating func look(at date: Date) -> Change? {
        let now = applying(at: date)
        let before = applying
        guard now != before else { return nil }
        applying = now
        var state = ScheduleState()
        for index in now {
            let entry = entries[index]
            state.channel = entry.channel ?? state.channel
            state.volume = entry.volume ?? state.volume
            state.muted = entry.muted ?? state.muted
            state.panel = entry.panel ?? state.panel
            state.standby = state.standby || entry.standby
        }
        return Change(began: now.filter { !(before ?? []).contains($0) }, ended: (before ?? []).filter { !now.contains($0) },
                      state: state, atStart: before == nil)
    }
}
