import Foundation

/// A content rating as the guide states it: `TV-14` in the `VCHIP` system,
/// `12` in `FSK`, `PG` in `MPAA`. The system may be missing.
public struct ProgrammeRating: Sendable, Hashable, Codable {
    public var system: String?
    public var value: String

    public init(system: String? = nil, value: String) {
        self.system = system
        self.value = value
    }
}

/// One programme of a channel: what the card, the banner and the panel show.
public struct Programme: Sendable, Hashable, Codable {
    /// The XMLTV `channel` attribute, matched against a lineup channel's `tvg-id` (`guideID`).
    public var channelID: String
    public var start: Date
    /// The end; when the guide gave none, the start of the channel's next programme.
    public var stop: Date
    public var title: String
    public var subTitle: String?
    public var description: String?
    public var ratings: [ProgrammeRating]
    public var categories: [String]

    public init(channelID: String, start: Date, stop: Date, title: String, subTitle: String? = nil,
                description: String? = nil, ratings: [ProgrammeRating] = [], categories: [String] = []) {
        self.channelID = channelID
        self.start = start
        self.stop = stop
        self.title = title
        self.subTitle = subTitle
        self.description = description
        self.ratings = ratings
        self.categories = categories
    }

    /// The first rating, the one to show and to check against the parental limit.
    public var rating: ProgrammeRating? { ratings.first }
    /// The first category.
    public var category: String? { categories.first }
    public var duration: TimeInterval { stop.timeIntervalSince(start) }

    public func isOn(at time: Date) -> Bool { start <= time && time < stop }

    /// How far through the programme `time` is, from 0 to 1 (for the progress bar), in steps
    /// of 1/`progressSteps`: finer than a bar's pixels at 1080p is not seen, and every change
    /// redraws the banner or panel that shows it (a smooth figure would redraw it every frame).
    public func progress(at time: Date) -> Double {
        guard duration > 0 else { return 0 }
        let exact = min(1, max(0, time.timeIntervalSince(start) / duration))
        return (exact * Self.progressSteps).rounded(.down) / Self.progressSteps
    }

    public static let progressSteps = 1024.0
}

/// An XMLTV `<channel>`: its id and the names and logo the guide gives it.
public struct GuideChannel: Sendable, Hashable, Codable {
    public var id: String
    public var displayNames: [String]
    public var icon: URL?

    public init(id: String, displayNames: [String] = [], icon: URL? = nil) {
        self.id = id
        self.displayNames = displayNames
        self.icon = icon
    }
}

/// The span of time a guide keeps: programmes that end after `now - past` and
/// start before `now + ahead`. This is what bounds a guide's memory.
public struct GuideWindow: Sendable, Equatable {
    public var now: Date
    public var past: TimeInterval
    public var ahead: TimeInterval

    public init(now: Date, past: TimeInterval = 3600, ahead: TimeInterval = 86_400) {
        self.now = now
        self.past = past
        self.ahead = ahead
    }

    public var lowerBound: Date { now.addingTimeInterval(-past) }
    public var upperBound: Date { now.addingTimeInterval(ahead) }

    public func keeps(start: Date, stop: Date) -> Bool { stop > lowerBound && start < upperBound }
}

/// The programme guide: each channel's programmes in time order, without
/// overlaps, so "now" and "next" are binary searches.
public struct Guide: Sendable, Equatable {
    /// Programmes per channel id, sorted by start; each ends no later than the next starts.
    public private(set) var programmesByChannel: [String: [Programme]]
    /// The `<channel>` entries, by id.
    public private(set) var channels: [String: GuideChannel] {
        didSet { idsByName = Self.names(channels) }
    }
    /// Channel ids by their display names (`GuideWanted.key`), for lineup channels matched by name.
    public private(set) var idsByName: [String: String] = [:]

    public init(programmes: [Programme] = [], channels: [GuideChannel] = [], window: GuideWindow? = nil) {
        var byChannel: [String: [Programme]] = [:]
        for programme in programmes { byChannel[programme.channelID, default: []].append(programme) }
        programmesByChannel = byChannel.compactMapValues { list in
            let tidy = Self.tidy(list, window: window)
            return tidy.isEmpty ? nil : tidy
        }
        self.channels = Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { _, newer in newer })
        idsByName = Self.names(self.channels)
    }

    /// Every display name to its channel's id; a name two channels share goes to the smaller id.
    static func names(_ channels: [String: GuideChannel]) -> [String: String] {
        var index: [String: String] = [:]
        for (id, channel) in channels {
            for name in channel.displayNames {
                let key = GuideWanted.key(name)
                if let taken = index[key], taken < id { continue }
                index[key] = id
            }
        }
        return index
    }

    public static let empty = Guide()

    public var isEmpty: Bool { programmesByChannel.isEmpty }
    public var programmeCount: Int { programmesByChannel.values.reduce(0) { $0 + $1.count } }
    public var channelIDs: [String] { programmesByChannel.keys.sorted() }

    public func programmes(channelID: String) -> [Programme] { programmesByChannel[channelID] ?? [] }

    /// The programme on at `time`, if the guide knows one.
    public func now(channelID: String, at time: Date) -> Programme? {
        let list = programmes(channelID: channelID)
        let index = Self.firstIndex(in: list, startingAfter: time) - 1
        guard index >= 0, list[index].isOn(at: time) else { return nil }
        return list[index]
    }

    /// The first programme that starts after `time` (after "now", that is "next").
    public func next(channelID: String, after time: Date) -> Programme? {
        let list = programmes(channelID: channelID)
        let index = Self.firstIndex(in: list, startingAfter: time)
        return index < list.count ? list[index] : nil
    }

    /// The programmes that overlap `from ..< to`, in order.
    public func programmes(channelID: String, from: Date, to: Date) -> [Programme] {
        let list = programmes(channelID: channelID)
        guard from < to else { return [] }
        var index = max(0, Self.firstIndex(in: list, startingAfter: from) - 1)
        var result: [Programme] = []
        while index < list.count, list[index].start < to {
            if list[index].stop > from { result.append(list[index]) }
            index += 1
        }
        return result
    }

    /// The guide with only what `window` keeps.
    public func trimmed(to window: GuideWindow) -> Guide {
        var copy = self
        copy.programmesByChannel = programmesByChannel.compactMapValues { list in
            let kept = list.filter { window.keeps(start: $0.start, stop: $0.stop) }
            return kept.isEmpty ? nil : kept
        }
        return copy
    }

    /// A refresh: for every channel the newer guide lists, its programmes replace
    /// the old ones in the span it covers; old programmes outside that span (the
    /// past hour a provider no longer lists, say) and channels it does not list
    /// stay. Then `window`, when given, trims the result.
    public func merging(_ newer: Guide, window: GuideWindow? = nil) -> Guide {
        var byChannel = programmesByChannel
        for (id, fresh) in newer.programmesByChannel {
            guard let first = fresh.first?.start, let last = fresh.last?.stop else { continue }
            let kept = (byChannel[id] ?? []).filter { $0.stop <= first || $0.start >= last }
            byChannel[id] = Self.tidy(kept + fresh, window: nil)
        }
        var merged = self
        merged.programmesByChannel = byChannel
        merged.channels.merge(newer.channels, uniquingKeysWith: { _, fresh in fresh })
        return window.map { merged.trimmed(to: $0) } ?? merged
    }

    // MARK: - Order

    /// The index of the first programme whose start is after `time` (binary search).
    static func firstIndex(in list: [Programme], startingAfter time: Date) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Sorts one channel's programmes by start; of two with the same start the
    /// later listed wins; a programme that runs into the next is cut at its
    /// start; empty ones go; then the window, when given.
    static func tidy(_ list: [Programme], window: GuideWindow?) -> [Programme] {
        let sorted = list.enumerated().sorted { a, b in
            a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset
        }.map(\.element)
        var result: [Programme] = []
        result.reserveCapacity(sorted.count)
        for programme in sorted {
            if let last = result.last, last.start == programme.start { result.removeLast() }
            result.append(programme)
        }
        for index in result.indices.dropLast() where result[index].stop > result[index + 1].start {
            result[index].stop = result[index + 1].start
        }
        return result.filter { $0.stop > $0.start && (window?.keeps(start: $0.start, stop: $0.stop) ?? true) }
    }
}
