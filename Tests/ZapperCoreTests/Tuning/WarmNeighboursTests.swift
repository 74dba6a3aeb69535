import Testing
import ZapperCore

/// A provider's connection limit and the warm neighbours: counted by host, the playing channel first.
@Suite struct WarmNeighboursTests {
    /// Channels 1–3 on one provider's host, 4 on another; 5 has no host.
    static func host(_ channel: Int) -> String? { channel == 5 ? nil : channel == 4 ? "other.example" : "provider.example" }

    @Test func withoutALimitBothNeighboursAreWarm() {
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: nil, host: Self.host) == [2, 1])
        // A two-channel lineup wants the same neighbour twice, and never the playing one.
        #expect(WarmNeighbours.allowed([2, 2, 3], playing: 3, limit: nil, host: Self.host) == [2])
    }

    @Test func theLimitCountsThePlayingChannelAndTheNextComesFirst() {
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: 1, host: Self.host) == [])
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: 2, host: Self.host) == [2])
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: 3, host: Self.host) == [2, 1])
        // Another host has a count of its own; a channel without a host is not counted.
        #expect(WarmNeighbours.allowed([4, 2], playing: 3, limit: 1, host: Self.host) == [4])
        #expect(WarmNeighbours.allowed([5, 2], playing: 1, limit: 1, host: Self.host) == [5])
    }

    /// A network tuner's tuners are its host's limit; with the box's own, the smaller counts.
    @Test func aTunersCountIsItsHostsLimit() {
        let tuners = ["provider.example": 2]
        func limit(_ configured: Int?) -> (String) -> Int? {
            { WarmNeighbours.limit(for: $0, configured: configured, tuners: tuners) }
        }
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: limit(nil), host: Self.host) == [2])
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: limit(1), host: Self.host) == [])
        #expect(WarmNeighbours.allowed([2, 1], playing: 3, limit: limit(8), host: Self.host) == [2])
        // The other host has none of its own.
        #expect(WarmNeighbours.allowed([4, 2], playing: 3, limit: limit(nil), host: Self.host) == [4, 2])
        #expect(WarmNeighbours.limit(for: "other.example", configured: 3, tuners: tuners) == 3)
    }
}
