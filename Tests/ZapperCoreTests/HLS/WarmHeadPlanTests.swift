import Foundation
import Testing
@testable import ZapperCore

/// Which variant a warm neighbour keeps the heads of, how much it asks for, and how often.
@Suite struct WarmHeadPlanTests {
    /// The origin's ladder: 240p, 720p, 1080p.
    static let ladder = [578_288, 2_844_064, 5_430_192]
    static let keys = [-240, -720, -1080]

    @Test func theVariantFitsTheMeasuredBandwidthAndTheBudget() {
        // Nothing measured: the lowest.
        #expect(WarmHeadPlan(bandwidths: Self.ladder, estimate: nil, now: 0).rank == 0)
        // 3 Mbit/s carries 240p only (70 % of it: 2.1 Mbit/s).
        #expect(WarmHeadPlan(bandwidths: Self.ladder, estimate: 3_000_000, now: 0).rank == 0)
        // 5 Mbit/s carries 720p, but its head (about 124 kB) would take 0.2 s: 240p.
        #expect(WarmHeadPlan(bandwidths: Self.ladder, estimate: 5_000_000, now: 0).rank == 0)
        #expect(WarmHeadPlan(bandwidths: Self.ladder, estimate: 9_000_000, now: 0).rank == 1)
        // 20 Mbit/s carries 1080p; once the playlist says 2 s segments, its expected head
        // (0.35 s of 5.4 Mbit/s, 237 kB) is over 1.25 × 125 kB: 720p (124 kB) it is.
        var plan = WarmHeadPlan(bandwidths: Self.ladder, keys: Self.keys, estimate: 20_000_000, now: 0)
        #expect(plan.rank == 2)
        plan.fit(segmentDuration: 2)
        #expect(plan.rank == 1)
        #expect(plan.firstRequest == 2_844_064 * 35 / 800 + WarmHeadPlan.margin)
        // 6 s segments leave room for 1080p's.
        var long = WarmHeadPlan(bandwidths: Self.ladder, keys: Self.keys, estimate: 20_000_000, now: 0)
        long.fit(segmentDuration: 6)
        #expect(long.rank == 2)
    }

    @Test func headsSeenTeachTheNextPlanAcrossChannels() {
        var plan = WarmHeadPlan(bandwidths: Self.ladder, keys: Self.keys, estimate: 20_000_000, now: 0)
        plan.fit(segmentDuration: 2)
        plan.fetchedHead(140_000, needed: 116_000, segmentDuration: 2, at: 0)
        #expect(plan.rank == 1, "a 116 kB head fits")
        #expect(plan.heads == [-720: 116_000])
        #expect(plan.firstRequest == 116_000 + WarmHeadPlan.margin)
        // A head that needed more than the budget steps the next one down.
        plan.fetchedHead(300_000, needed: 290_000, segmentDuration: 2, at: 10)
        #expect(plan.rank == 0)
        // Another channel with this ladder (its BANDWIDTHs a little different) starts from what was seen.
        var next = WarmHeadPlan(bandwidths: [600_000, 2_900_000, 5_500_000], keys: Self.keys, estimate: 20_000_000,
                                heads: plan.heads, now: 0)
        next.fit(segmentDuration: 2)
        #expect(next.rank == 0, "720p's heads were seen needing 290 kB")
        // A head given up (no key frame whole) counts all it fetched.
        var given = WarmHeadPlan(bandwidths: Self.ladder, keys: Self.keys, estimate: 20_000_000, now: 0)
        given.fit(segmentDuration: 2)
        given.fetchedHead(WarmHeadPlan.maxHeadBytes, needed: nil, segmentDuration: 2, at: 0)
        #expect(given.rank == 0)
    }

    @Test func headsComeNoFasterThanTheBudgetPays() {
        var plan = WarmHeadPlan(bandwidths: Self.ladder, estimate: nil, now: 100)
        #expect(plan.mayFetch(at: 100), "the first head at once")
        // 125 kB at 500 kbit/s: 2 s of budget.
        plan.fetchedHead(125_000, needed: 120_000, segmentDuration: 2, at: 100)
        #expect(!plan.mayFetch(at: 101))
        #expect(plan.mayFetch(at: 102 - WarmHeadPlan.slack))
        // Reloads count too: 31.25 kB is half a second more.
        plan.spent(31_250, at: 101)
        #expect(!plan.mayFetch(at: 102))
        #expect(plan.mayFetch(at: 102.5 - WarmHeadPlan.slack))
        // The budget is an average: a long pause does not save up for a burst.
        plan.spent(0, at: 200)
        plan.fetchedHead(125_000, needed: 120_000, segmentDuration: 2, at: 200)
        #expect(!plan.mayFetch(at: 201))
    }

    @Test func anyBandwidthAPlaylistGivesIsSafe() {
        var plan = WarmHeadPlan(bandwidths: [Int.min, 0, Int.max], estimate: .greatestFiniteMagnitude, now: 0)
        plan.fit(segmentDuration: 2)
        #expect(plan.firstRequest <= WarmHeadPlan.maxHeadBytes)
        var huge = WarmHeadPlan(bandwidths: [1, Int.max], estimate: 1e300, heads: [Int.max: Int.max], now: 0)
        huge.fit(segmentDuration: .infinity)
        huge.fetchedHead(Int.max / 16, needed: nil, segmentDuration: .nan, at: 0)
        huge.fit(segmentDuration: 2)
        #expect(huge.rank == 0 && huge.firstRequest == 32 << 10)
    }

    @Test func theMemoryIsBounded() {
        let full = Dictionary(uniqueKeysWithValues: (1...WarmHeadPlan.maxRemembered).map { ($0 * 1000, 1) })
        var known = WarmHeadPlan(bandwidths: [1000], estimate: nil, heads: full, now: 0)
        known.fetchedHead(10, needed: 10, segmentDuration: 2, at: 0)
        #expect(known.heads.count == WarmHeadPlan.maxRemembered && known.heads[1000] == 10)
        var new = WarmHeadPlan(bandwidths: [500], estimate: nil, heads: full, now: 0)
        new.fetchedHead(10, needed: 10, segmentDuration: 2, at: 0)
        #expect(new.heads == [500: 10], "a kind more than the memory holds starts it afresh")
    }

    @Test func theHeadKeptIsOfTheSegmentBeforeTheNewest() {
        func segments(_ gaps: [Bool]) -> [HLSSegment] {
            gaps.enumerated().map { index, gap in
                var segment = HLSSegment(sequence: Int64(100 + index), uri: URL(string: "http://o/\(100 + index).ts")!, duration: 2)
                segment.gap = gap
                return segment
            }
        }
        #expect(WarmHeadPlan.headSegment(of: segments([false, false, false]))?.sequence == 101)
        // A gap before the newest: the last whole one before the newest.
        #expect(WarmHeadPlan.headSegment(of: segments([false, true, false]))?.sequence == 100)
        // The newest a gap: the one before it all the same.
        #expect(WarmHeadPlan.headSegment(of: segments([false, false, true]))?.sequence == 101)
        // One segment listed, or only the newest not a gap: the newest.
        #expect(WarmHeadPlan.headSegment(of: segments([false]))?.sequence == 100)
        #expect(WarmHeadPlan.headSegment(of: segments([true, false]))?.sequence == 101)
        #expect(WarmHeadPlan.headSegment(of: segments([true, true])) == nil)
        #expect(WarmHeadPlan.headSegment(of: []) == nil)
    }
}
