import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// CH± within a ring (`flip-within`): the favourites or the group, wrapping, and from
/// a channel outside the ring to its nearest member in the lineup's order.
@Suite struct FlipRingTests {
    let channels = [1, 2, 3, 4, 5, 6, 7, 8]

    @Test func stepsWrapWithinTheRing() {
        #expect(Tuner.step(from: 2, by: 1, in: channels, ring: [2, 5, 7]) == 5)
        #expect(Tuner.step(from: 7, by: 1, in: channels, ring: [2, 5, 7]) == 2)
        #expect(Tuner.step(from: 2, by: -1, in: channels, ring: [2, 5, 7]) == 7)
        #expect(Tuner.step(from: 5, by: 4, in: channels, ring: [2, 5, 7]) == 7)
        #expect(Tuner.step(from: 8, by: 1, in: channels, ring: nil) == 1)
        #expect(Tuner.step(from: 3, by: -1, in: channels, ring: []) == 2, "an empty ring is the whole lineup")
    }

    @Test func fromOutsideTheRingTheNearestMemberComesFirst() {
        #expect(Tuner.step(from: 3, by: 1, in: channels, ring: [2, 5, 7]) == 5)
        #expect(Tuner.step(from: 3, by: -1, in: channels, ring: [2, 5, 7]) == 2)
        #expect(Tuner.step(from: 8, by: 1, in: channels, ring: [2, 5, 7]) == 2)
        #expect(Tuner.step(from: 1, by: -1, in: channels, ring: [2, 5, 7]) == 7)
        #expect(Tuner.step(from: 3, by: 2, in: channels, ring: [2, 5, 7]) == 7)
    }

    @Test func aStepAlwaysLandsInTheRing() async {
        await propertyCheck(count: 500, input: Gen.int(in: 1...8), Gen.int(in: -20...20), Gen.int(in: 1...8).array(of: 0...8)) { target, delta, ring in
            let next = Tuner.step(from: target, by: delta, in: channels, ring: ring)
            if ring.isEmpty { #expect(channels.contains(next)) } else if delta != 0 { #expect(ring.contains(next)) }
        }
    }

    @Test func favouritesAndGroupsMakeTheRing() {
        let url = URL(string: "https://x.example/")!
        let lineup = (1...6).map { LineupChannel(number: $0, name: "C\($0)", url: url.appendingPathComponent("\($0)"),
                                                 group: $0 <= 3 ? "News" : "Sport") }
        var favourites = Favourites()
        #expect(FlipWithin.favourites.ring(from: 1, lineup: lineup, favourites: favourites) == nil, "no favourites: all")
        #expect(favourites.toggle(lineup[4]) && favourites.toggle(lineup[1]))
        #expect(FlipWithin.favourites.ring(from: 1, lineup: lineup, favourites: favourites) == [2, 5], "in lineup order")
        #expect(FlipWithin.group.ring(from: 5, lineup: lineup, favourites: favourites) == [4, 5, 6])
        #expect(FlipWithin.all.ring(from: 5, lineup: lineup, favourites: favourites) == nil)
        #expect(!favourites.toggle(lineup[1]) && favourites.keys == [lineup[4].stateKey])
        #expect(Favourites(keys: ["a", "b", "a"]).keys == ["a", "b"])
    }
}
