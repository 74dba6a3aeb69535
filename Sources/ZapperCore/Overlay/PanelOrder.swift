/// The order of the panel's channel list: the favourites first (in lineup order, under their
/// own heading, and in their groups too), the last ten watched (most recent first), then
/// grouped by `group-title` (groups in the order they first appear, `Other` for none), lineup
/// order within a group (a channel in several, `News;Sports`, is in each).
public enum PanelOrder {
    /// A channel of the list, under its group's heading (nil: no group).
    public struct Entry: Sendable, Equatable {
        public var number: Int
        public var group: String?

        public init(number: Int, group: String?) {
            self.number = number
            self.group = group
        }
    }

    public static let favouritesHeading = "Favourites"
    public static let recentsHeading = "Recent"

    public static func entries(_ lineup: [LineupChannel], favourites: Favourites, recents: Recents) -> [Entry] {
        var groups: [String?] = []
        var seen = Set<String?>()
        var members: [String?: [Int]] = [:]
        for channel in lineup {
            let own: [String?] = channel.groups.isEmpty ? [nil] : channel.groups
            for group in own {
                if seen.insert(group).inserted { groups.append(group) }
                members[group, default: []].append(channel.number)
            }
        }
        let favourite = favourites.numbers(in: lineup).map { Entry(number: $0, group: favouritesHeading) }
        let recent = recents.numbers(in: lineup).map { Entry(number: $0, group: recentsHeading) }
        return favourite + recent + groups.flatMap { group in (members[group] ?? []).map { Entry(number: $0, group: group) } }
    }
}
