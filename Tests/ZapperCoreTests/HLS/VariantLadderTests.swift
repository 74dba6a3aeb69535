import Foundation
import Testing
@testable import ZapperCore

@Suite struct VariantLadderTests {
    static func variant(_ host: String, _ bandwidth: Int, height: Int = 360, codecs: [String] = ["avc1.64001f", "mp4a.40.2"],
                        audio: String? = nil) -> HLSVariant {
        var variant = HLSVariant(uri: URL(string: "http://\(host)/\(bandwidth).m3u8")!, bandwidth: bandwidth)
        variant.resolution = HLSResolution(width: height * 16 / 9, height: height)
        variant.codecs = codecs
        variant.audioGroup = audio
        return variant
    }

    @Test func aVariantListedAgainIsABackupOfTheSameRung() {
        let ladder = VariantLadder([
            Self.variant("a", 800_000), Self.variant("a", 2_000_000, height: 720),
            Self.variant("b", 800_000), Self.variant("b", 2_000_000, height: 720), Self.variant("c", 800_000),
        ])
        #expect(ladder.rungs == [[0, 2, 4], [1, 3]])
        #expect(ladder.bandwidths == [800_000, 2_000_000])
        #expect(ladder.backup(after: 0, tried: 1) == 2)
        #expect(ladder.backup(after: 2, tried: 2) == 4)
        #expect(ladder.backup(after: 4, tried: 3) == nil, "every backup tried")
        #expect(ladder.backup(after: 4, tried: 1) == 0, "round the rung when the last one fails first")
        #expect(ladder.backup(after: 9, tried: 1) == nil)
        #expect(ladder.lower(than: 1) == 0 && ladder.lower(than: 0) == nil)
    }

    @Test func anyOtherAttributeMakesADifferentStream() {
        let ladder = VariantLadder([
            Self.variant("a", 800_000), Self.variant("b", 800_000, height: 480),
            Self.variant("c", 800_000, codecs: ["hvc1.1.6.L93.B0"]), Self.variant("d", 800_000, audio: "aac"),
        ])
        #expect(ladder.rungs == [[0], [1], [2], [3]])
        #expect(ladder.backup(after: 0, tried: 1) == nil)
    }

    @Test func anEmptyMasterHasNoRungs() {
        #expect(VariantLadder([]).rungs.isEmpty)
        #expect(VariantLadder([]).standIns(for: 0).isEmpty)
    }

    /// Where a segment is a gap: the same picture from a redundant copy first, then the
    /// nearest rung below, then the nearest above.
    @Test func aGapsStandInsAreTheCopiesThenTheRungsBelowThenAbove() {
        let ladder = VariantLadder([
            Self.variant("a", 800_000), Self.variant("a", 2_000_000, height: 720), Self.variant("a", 5_000_000, height: 1080),
            Self.variant("b", 2_000_000, height: 720), Self.variant("a", 400_000, height: 240),
        ])
        #expect(ladder.standIns(for: 1) == [3, 0, 4, 2])
        #expect(ladder.standIns(for: 3) == [1, 0, 4, 2])
        #expect(ladder.standIns(for: 4) == [0, 1, 3, 2])
        #expect(ladder.standIns(for: 2) == [1, 3, 0, 4])
        #expect(ladder.standIns(for: 9).isEmpty)
        #expect(VariantLadder([Self.variant("a", 800_000)]).standIns(for: 0).isEmpty)
    }

    /// 1080p, 240p, a rung without a RESOLUTION, 720p and one too large to count, listed out of
    /// bandwidth order.
    static let mixedLadder: VariantLadder = {
        var unsized = variant("a", 1_200_000)
        unsized.resolution = nil
        var huge = variant("a", 9_000_000)
        huge.resolution = HLSResolution(width: Int.max, height: 2)
        return VariantLadder([variant("a", 5_000_000, height: 1080), variant("a", 400_000, height: 240),
                              unsized, variant("a", 2_500_000, height: 720), huge])
    }()

    @Test func aPictureCeilingLeavesTheRungsBelowItsSize() {
        let ladder = Self.mixedLadder
        #expect(ladder.pixels == [1920 * 1080, 426 * 240, nil, 1280 * 720, nil])
        // Ranks in bandwidth order: 240p 0, unsized 1, 720p 2, 1080p 3, huge 4.
        #expect(ladder.rank(fewerPixelsThan: 1920 * 1080) == 2)
        #expect(ladder.rank(fewerPixelsThan: 1280 * 720) == 0, "the unsized rung is not chosen above the lowest")
        #expect(ladder.rank(fewerPixelsThan: 426 * 240) == 0, "the lowest plays whatever it costs")
        #expect(ladder.rank(fewerPixelsThan: Int.max) == 3)
    }

    /// The smallest rung that fills the screen (fitted, enlarged by at most 2 %) is the largest
    /// fetched: a 720p screen gains nothing from 1080p pictures but their cost.
    @Test func theScreenCeilingIsOneAboveTheSmallestRungThatFillsIt() {
        let ladder = Self.mixedLadder
        func ceiling(_ width: Int, _ height: Int) -> Int? { ladder.ceiling(forScreen: HLSResolution(width: width, height: height)) }
        #expect(ceiling(320, 180) == 426 * 240 + 1)
        #expect(ceiling(426, 240) == 426 * 240 + 1)
        #expect(ceiling(640, 360) == 1280 * 720 + 1, "240p would be enlarged half as much again")
        #expect(ceiling(1280, 720) == 1280 * 720 + 1)
        #expect(ceiling(1300, 734) == 1280 * 720 + 1, "enlarged by 1.6 %: near enough")
        #expect(ceiling(1366, 768) == 1920 * 1080 + 1, "enlarged by 6.7 %: not")
        #expect(ceiling(1024, 768) == 1280 * 720 + 1, "fitted to the width")
        #expect(ceiling(1920, 1080) == 1920 * 1080 + 1)
        #expect(ceiling(3840, 2160) == nil, "no rung fills a 4K screen: any may be chosen")
        #expect(ceiling(0, 1080) == nil && ceiling(-1, -1) == nil)
        // Ranks in bandwidth order: 240p 0, unsized 1, 720p 2, 1080p 3, huge 4.
        #expect(ceiling(1280, 720).map { ladder.rank(fewerPixelsThan: $0) } == 2)
        #expect(ceiling(320, 180).map { ladder.rank(fewerPixelsThan: $0) } == 0)
        let unsizedOnly = VariantLadder([Self.variant("a", 1_200_000).with(resolution: nil), Self.variant("b", 2_000_000).with(resolution: nil)])
        #expect(unsizedOnly.ceiling(forScreen: HLSResolution(width: 320, height: 180)) == nil, "nothing says its size: no ceiling")
    }
}

private extension HLSVariant {
    func with(resolution: HLSResolution?) -> HLSVariant {
        var copy = self
        copy.resolution = resolution
        return copy
    }
}
