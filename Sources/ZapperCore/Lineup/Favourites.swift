/// The viewer's favourite channels, by `LineupChannel.stateKey` (so a renumbered
/// lineup keeps them), in the order they were added; kept in the state.
public struct Favourites: Sendable, Equatable {
    public private(set) var keys: [String]
    /// The most kept (the oldest go first).
    public static let limit = 10_000

    public init(keys: [String] = []) {
        var seen = Set<String>()
        self.keys = Array(keys.filter { seen.insert($0).inserted }.suffix(Self.limit))
    }

    public func contains(_ channel: LineupChannel) -> Bool { keys.contains(channel.stateKey) }

    /// Adds the channel, or takes it away when it is one; whether it is a favourite now.
    @discardableResult
    public mutating func toggle(_ channel: LineupChannel) -> Bool {
        if let index = keys.firstIndex(of: channel.stateKey) {
            keys.remove(at: index)
            return false
        }
        keys.append(channel.stateKey)
        if keys.count > Self.limit { keys.removeFirst(keys.count - Self.limit) }
        return true
    }

    /// The favourite channels of `lineup`, in its order.
    public func numbers(in lineup: [LineupChannel]) -> [Int] {
        let wanted = Set(keys)
        return lineup.filter { wanted.contains($0.stateKey) }.map(\.number)
    }
}

/// Which channels CH± steps through (`flip-within` in the configuration).
public enum FlipWithin: String, Sendable, Equatable, CaseIterable {
    /// The whole lineup.
    case all
    /// The favourites (the whole lineup while there are none).
    case favourites
    /// The `group-title` of the channel CH± starts from.
    case group

    /// The channels a flip from `target` steps through, in lineup order; nil: all of them.
    /// Without `radio`, radio channels are left out (unless nothing would be left).
    public func ring(from target: Int, lineup: [LineupChannel], favourites: Favourites, radio: Bool = true) -> [Int]? {
        let ring = withRadio(from: target, lineup: lineup, favourites: favourites)
        guard !radio else { return ring }
        let radios = Set(lineup.filter(\.isRadio).map(\.number))
        guard !radios.isEmpty else { return ring }
        let left = (ring ?? lineup.map(\.number)).filter { !radios.contains($0) }
        return left.isEmpty ? ring : left
    }

    private func withRadio(from target: Int, lineup: [LineupChannel], favourites: Favourites) -> [Int]? {
        switch self {
        case .all: return nil
        case .favourites:
            let numbers = favourites.numbers(in: lineup)
            return numbers.isEmpty ? nil : numbers
        case .group:
            // The first of its groups (`News;Sports`: News).
            guard let group = lineup.first(where: { $0.number == target })?.groups.first else { return nil }
            return lineup.filter { $0.groups.contains(group) }.map(\.number)
        }
    }
}

/// The last channels watched, most recent first, by `LineupChannel.stateKey`; kept in the state.
public struct Recents: Sendable, Equatable {
    public private(set) var keys: [String]
    public static let limit = 10

    public init(keys: [String] = []) {
        var seen = Set<String>()
        self.keys = Array(keys.filter { seen.insert($0).inserted }.prefix(Self.limit))
    }

    /// The channel's picture came: it goes to the front.
    public mutating func watched(_ channel: LineupChannel) {
        keys.removeAll { $0 == channel.stateKey }
        keys.insert(channel.stateKey, at: 0)
        if keys.count > Self.limit { keys.removeLast(keys.count - Self.limit) }
    }

    /// The recent channels of `lineup`, most recent first.
    public func numbers(in lineup: [LineupChannel]) -> [Int] {
        var byKey: [String: Int] = [:]
        for channel in lineup where byKey[channel.stateKey] == nil { byKey[channel.stateKey] = channel.number }
        return keys.compactMap { byKey[$0] }
    }
}
