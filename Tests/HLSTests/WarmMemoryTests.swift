import Testing
import ZapperHLS

/// The bandwidth a new warm neighbour starts from is the box's, every playing download weighted
/// by how long it took: a promoted session's few small downloads do not speak for the line.
struct WarmMemoryTests {
    @Test func smallDownloadsBoundByTheRoundTripDoNotSwingTheEstimate() throws {
        let memory = WarmMemory()
        #expect(memory.estimate == nil)
        for _ in 0..<10 { memory.measured(bytes: 1_350_000, seconds: 0.58) }  // 1080p segments: 18.6 Mbit/s
        // A still channel's segment, most of its time the round trip: 10 Mbit/s (its session said 3.9).
        memory.measured(bytes: 52_076, seconds: 0.041)
        let estimate = try #require(memory.estimate)
        #expect(estimate > 18_000_000, "\(estimate)")
        memory.measured(bytes: 0, seconds: 1)
        memory.measured(bytes: 1_000, seconds: .nan)
        #expect(memory.estimate == estimate, "nothing, or no time: not counted")
    }

    @Test func aLineThatSlowsIsFollowedWithinSeconds() throws {
        let memory = WarmMemory()
        memory.assume(20_000_000)
        for _ in 0..<10 { memory.measured(bytes: 312_500, seconds: 0.5) }  // 5 Mbit/s for 5 s
        let estimate = try #require(memory.estimate)
        #expect(estimate < 8_000_000, "\(estimate)")
    }
}
