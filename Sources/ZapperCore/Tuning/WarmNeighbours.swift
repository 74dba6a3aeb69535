/// Which of the wanted neighbours may be kept warm when a provider allows only so many
/// connections at once per account (a paid IPTV service: one or two): a warm neighbour holds a
/// connection to its host as the playing channel does, and one too many would get the playing
/// channel itself refused. Counted by host name, the playing channel's first; neighbours in the
/// order wanted (next, then previous). No limit: all of them. A network tuner (an HDHomeRun)
/// has a limit of its own: its tuners.
public enum WarmNeighbours {
    public static func allowed(_ wanted: [Int], playing: Int, limit: Int?, host: (Int) -> String?) -> [Int] {
        allowed(wanted, playing: playing, limit: { _ in limit }, host: host)
    }

    /// `limit`: each host's own (the configuration's `connections-per-host`, a network tuner's
    /// `TunerCount`, the smaller of the two); nil: none for that host.
    public static func allowed(_ wanted: [Int], playing: Int, limit: (String) -> Int?, host: (Int) -> String?) -> [Int] {
        var seen = Set<Int>()
        let wanted = wanted.filter { $0 != playing && seen.insert($0).inserted }
        var open: [String: Int] = [:]
        if let own = host(playing) { open[own, default: 0] += 1 }
        return wanted.filter { neighbour in
            guard let name = host(neighbour), let most = limit(name) else { return true }
            guard open[name, default: 0] < most else { return false }
            open[name, default: 0] += 1
            return true
        }
    }

    /// The limit for `host`: the smaller of the box's and the host's own.
    public static func limit(for host: String, configured: Int?, tuners: [String: Int]) -> Int? {
        switch (configured, tuners[host]) {
        case let (a?, b?): min(a, b)
        case let (a, b): a ?? b
        }
    }
}
