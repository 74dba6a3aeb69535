import PropertyBased
import Testing
import ZapperCore

/// The A/V rule (`PictureDue`) with the picture queue it drives: what is due at each refresh, for
/// any display's period, lip-sync offset and picture rate.
struct PictureDueTests {
    @Test func thePeriodIsTheDisplaysThenTheLearntOneThenASixtieth() {
        #expect(PictureDue(reported: 1.0 / 50, learnt: 1.0 / 60).period == 1.0 / 50)
        #expect(PictureDue(reported: nil, learnt: 1.0 / 30).period == 1.0 / 30)
        #expect(PictureDue(reported: nil).period == 1.0 / 60)
        #expect(PictureDue(reported: 0, learnt: -1).period == 1.0 / 60, "a 0 Hz mode and a flip gone wrong are not believed")
        #expect(PictureDue(reported: 5, learnt: 1.0 / 24).period == 1.0 / 24)
    }

    @Test func noClockTakesTheFirstAndFrozenTakesNothing() {
        let rule = PictureDue(reported: 1.0 / 60)
        #expect(rule.take(.none) == .first)
        #expect(rule.take(.frozen) == .nothing)
        #expect(rule.take(.frozen).dueTime == nil && rule.take(.none).dueTime == nil)
    }

    /// Rules 1–3 on any display: a picture is shown at the refresh whose interval holds its
    /// time (never before its time minus half a period, never after plus half), each at most
    /// once, and the ones passed over are counted as dropped.
    @Test func everyPictureShowsInTheRefreshThatHoldsItsTimeOrIsDroppedCounted() async {
        let input = zip(Gen.element(of: [1.0 / 24, 1.0 / 50, 1.0 / 60, 1.0 / 120]), Gen.element(of: [24.0, 25, 30, 50, 60]),
                        Gen.int(in: -200...200))
        await propertyCheck(count: 200, input: input) { period, rate, offset in
            let rule = PictureDue(reported: period!)
            let lipSync = LipSync(milliseconds: offset)
            var queue = DuePicturesTests.queue((0..<48).map { Double($0) / rate! }, maxCount: 64)
            var shown: [Double] = []
            var dropped = 0
            for refresh in 0..<Int(2.0 / period!) {
                let heard = Double(refresh) * period! - lipSync.seconds
                let due = rule.take(.sound(heard: heard, lipSync: lipSync))
                let clock = lipSync.pictureClock(heard: heard)
                #expect(due == .upTo(clock + period! / 2))
                guard let picture = queue.take(at: due.dueTime) else { continue }
                #expect(picture.time <= clock + period! / 2 + 1e-9, "not shown early")
                #expect(picture.time > clock - period! / 2 - 1e-9, "not shown late")
                shown.append(picture.time)
                dropped += picture.dropped
            }
            #expect(Set(shown).count == shown.count, "each picture once")
            #expect(shown == shown.sorted(), "in order")
            #expect(shown.count + dropped == 48, "every picture shown or counted as dropped")
            // A display at least as fast as the pictures drops none.
            if 1 / period! >= rate! { #expect(dropped == 0) }
        }
    }

    @Test func aSilentPlaybackRunsOnTheMonotonicClockAtItsRate() {
        let rule = PictureDue(reported: 0.02)
        #expect(rule.take(.free(pictureTime: 10, at: 100, now: 101, rate: 1)) == .upTo(11.01))
        #expect(rule.take(.free(pictureTime: 10, at: 100, now: 101, rate: 2)) == .upTo(12.01))
        #expect(rule.take(.free(pictureTime: 10, at: 100, now: 99, rate: 1)) == .upTo(10.01), "a clock that went back holds")
    }
}
