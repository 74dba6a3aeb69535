import Testing
import ZapperCore

/// A judgement of the box's speed holds for a while, longer each time it is made again.
struct SpeedVerdictTests {
    @Test func aJudgementHoldsForItsTimeThenLapses() {
        var verdict = SpeedVerdict(firstHold: 600)
        let before = verdict.pixels(at: 0)
        let made = verdict.tooSlow(pixels: 1280 * 720, at: 100)
        let held = verdict.pixels(at: 699.9)
        let lapsed = [verdict.pixels(at: 700), verdict.pixels(at: 5_000)]
        #expect(before == nil && made && held == 1280 * 720)
        #expect(verdict.holdInWords == "10 minutes")
        #expect(lapsed == [nil, nil], "lapsed after 600 s")
    }

    @Test func onlyASmallerSizeLowersAHeldJudgement() {
        var verdict = SpeedVerdict(firstHold: 600)
        let news = [verdict.tooSlow(pixels: 1920 * 1080, at: 0), verdict.tooSlow(pixels: 1920 * 1080, at: 10),
                    verdict.tooSlow(pixels: 3840 * 2160, at: 20), verdict.tooSlow(pixels: 1280 * 720, at: 300)]
        #expect(news == [true, false, false, true])
        let held = [verdict.pixels(at: 850), verdict.pixels(at: 900)]
        #expect(held == [1280 * 720, nil], "held from the lowering")
        #expect(verdict.hold == 600, "lowered while held: not a judgement made again")
    }

    @Test func madeAgainAfterALapseItHoldsTwiceAsLongUpToADay() {
        var verdict = SpeedVerdict(firstHold: 600)
        var now = 0.0
        var holds: [Double] = []
        var lapses: [Int?] = []
        for _ in 0..<10 {
            _ = verdict.tooSlow(pixels: 1000, at: now)
            holds.append(verdict.hold)
            now += verdict.hold  // lapses exactly then
            lapses.append(verdict.pixels(at: now))
        }
        #expect(holds == [600, 1_200, 2_400, 4_800, 9_600, 19_200, 38_400, 76_800, 86_400, 86_400])
        #expect(lapses.allSatisfy { $0 == nil })
        #expect(verdict.holdInWords == "24 hours")
    }

    @Test func nonsenseTimesDoNotHoldForEver() {
        var verdict = SpeedVerdict(firstHold: -5)
        #expect(verdict.hold == 1)
        let made = verdict.tooSlow(pixels: 1000, at: .nan)
        let later = verdict.pixels(at: 10)
        #expect(made && later == nil, "a judgement made at no time lapses at once")
    }
}
