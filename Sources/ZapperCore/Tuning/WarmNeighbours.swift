/// Which of the wanted neighbours may be kept warm when a provider allows only so many
/// connections at once per account (a paid IPTV service: one or two): a warm neighbour holds a
/// connection to its host as the playing channel does, and one too many would get the playing
/// channel itself refused. Counted by host name, the playing channel's first; neighbours in the
/// order wanted (next, then previous). No limit: all of them.
public enum WarmNeighbours {
    public static func allowed(_ wanted: [Int], playing: Int, limit: Int?, host: (Int) -> String?) -> [Int] {
        var seen = Set<Int>()
        let wanted = wanted.filter { $0 != playing && seen.insert($0).inserted }
        guard let limit else { return wanted }
        var open: [String: Int] = [:]
        if let own = host(playing) { open[own, default: 0] += 1 }
        return wanted.filter { neighbour in
            guard let name = host(neighbour) else { return true }
            guard open[name, default: 0] < limit else { return false }
            open[name, default: 0] += 1
            return true
        }
    }
}
