import Foundation

/// A guide shift in hours (`tvg-shift`, the configuration's `guide-shift`): a
/// guide written in another time zone. Fractional and negative shifts are fine
/// (India is +5.5); more than a day either way is not a time zone.
public enum GuideShift {
    public static let range = -24.0...24.0

    public static func hours(_ text: String) -> Result<Double, ShiftRejection> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let hours = Double(trimmed), hours.isFinite, range.contains(hours) else {
            return .failure(ShiftRejection(description: "\"\(trimmed.prefix(40))\" is not a number of hours from -24 to 24"))
        }
        return .success(hours)
    }

    public struct ShiftRejection: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }
}

/// Which guide channels a lineup wants: by `tvg-id`, else by name (a guide
/// `<channel>` whose display name is a lineup channel's `tvg-name` or name).
public struct GuideWanted: Sendable, Equatable {
    public var ids: Set<String>
    /// Normalised names (`GuideWanted.key`) of the lineup's channels.
    public var names: Set<String>

    public init(ids: Set<String>, names: Set<String> = []) {
        self.ids = ids
        self.names = names
    }

    public init(lineup: [LineupChannel]) {
        self.init(ids: Set(lineup.compactMap(\.guideID)), names: Set(lineup.map { Self.key($0.guideName) }))
    }

    /// Names compared without case and with runs of spaces as one.
    public static func key(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension Guide {
    /// The guide's channel id for a lineup channel: its `tvg-id` when the guide lists
    /// programmes under it, else the guide channel whose display name is its `tvg-name` or name.
    public func channelID(for channel: LineupChannel) -> String? {
        if let id = channel.guideID, programmesByChannel[id] != nil { return id }
        return idsByName[GuideWanted.key(channel.guideName)] ?? channel.guideID
    }

    /// The programme on a lineup channel at `time`, its times moved by the channel's shift.
    public func now(for channel: LineupChannel, at time: Date) -> Programme? {
        let shift = Self.seconds(channel.guideShift)
        return channelID(for: channel).flatMap { now(channelID: $0, at: time.addingTimeInterval(-shift)) }.map { Self.moved($0, by: shift) }
    }

    /// The programme after `time` on a lineup channel, its times moved by the channel's shift.
    public func next(for channel: LineupChannel, after time: Date) -> Programme? {
        let shift = Self.seconds(channel.guideShift)
        return channelID(for: channel).flatMap { next(channelID: $0, after: time.addingTimeInterval(-shift)) }.map { Self.moved($0, by: shift) }
    }

    /// The programmes on a lineup channel that overlap `from ..< to`, in order, moved by its shift.
    public func programmes(for channel: LineupChannel, from: Date, to: Date) -> [Programme] {
        let shift = Self.seconds(channel.guideShift)
        guard let id = channelID(for: channel) else { return [] }
        return programmes(channelID: id, from: from.addingTimeInterval(-shift), to: to.addingTimeInterval(-shift))
            .map { Self.moved($0, by: shift) }
    }

    /// From the earliest programme's start to the latest one's end (nil: no programmes).
    public var timeSpan: Range<Date>? {
        var earliest: Date?, latest: Date?
        for list in programmesByChannel.values {
            guard let first = list.first, let last = list.last else { continue }
            earliest = min(earliest ?? first.start, first.start)
            latest = max(latest ?? last.stop, last.stop)
        }
        guard let earliest, let latest, earliest < latest else { return nil }
        return earliest..<latest
    }

    static func seconds(_ hours: Double?) -> TimeInterval { (hours ?? 0) * 3600 }

    static func moved(_ programme: Programme, by seconds: TimeInterval) -> Programme {
        guard seconds != 0 else { return programme }
        var moved = programme
        moved.start = programme.start.addingTimeInterval(seconds)
        moved.stop = programme.stop.addingTimeInterval(seconds)
        return moved
    }
}
