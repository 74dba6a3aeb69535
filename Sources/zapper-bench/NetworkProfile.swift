import ArgumentParser

/// A network between the boxes and the origin, for `zapper-bench zap --network`.
struct NetworkProfile: ExpressibleByArgument, CustomStringConvertible {
    let name: String
    /// Round trip, milliseconds.
    let rtt: Int
    /// Each direction, megabits per second.
    let megabits: Int
    let lossPercent: Double

    static let all = [
        NetworkProfile(name: "lan", rtt: 1, megabits: 100, lossPercent: 0),
        NetworkProfile(name: "broadband", rtt: 40, megabits: 20, lossPercent: 0),
        NetworkProfile(name: "poor", rtt: 120, megabits: 6, lossPercent: 0.5),
    ]

    init(name: String, rtt: Int, megabits: Int, lossPercent: Double) {
        self.name = name
        self.rtt = rtt
        self.megabits = megabits
        self.lossPercent = lossPercent
    }

    init?(argument: String) {
        guard let known = Self.all.first(where: { $0.name == argument }) else { return nil }
        self = known
    }

    static var allValueStrings: [String] { all.map(\.name) }

    var description: String {
        "\(name) (\(rtt) ms round trip, \(megabits) Mbit/s" + (lossPercent > 0 ? ", \(lossPercent) % loss)" : ")")
    }
}
