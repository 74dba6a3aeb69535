import Testing
import ZapperCore

/// The hint comes once, after the banner, and goes; the sound level shows three seconds after each key.
struct PassingNoticesTests {
    @Test func theHintComesOnceAfterTheBannerAndGoes() {
        var notices = PassingNotices()
        notices.firstPicture(now: 1000, bannerUntil: 5000, long: false, allowed: true)
        #expect(notices.hintUntil == 10_000 && notices.showsHint)
        notices.expire(now: 9_999)
        #expect(notices.showsHint)
        notices.expire(now: 10_000)
        #expect(!notices.showsHint && notices.hintShown)
        notices.firstPicture(now: 20_000, bannerUntil: nil, long: false, allowed: true)
        #expect(!notices.showsHint, "once per run")
    }

    @Test func aNoteShowsTwiceAsLongAndSignageCanForbidTheHint() {
        var long = PassingNotices()
        long.firstPicture(now: 1000, bannerUntil: nil, long: true, allowed: true)
        #expect(long.hintUntil == 11_000)
        var none = PassingNotices()
        none.firstPicture(now: 1000, bannerUntil: nil, long: false, allowed: false)
        #expect(!none.showsHint && !none.hintShown)
    }

    @Test func thePanelEndsTheHint() {
        var notices = PassingNotices()
        notices.firstPicture(now: 0, bannerUntil: nil, long: false, allowed: true)
        notices.panelOpened()
        #expect(!notices.showsHint)
    }

    @Test func theLevelShowsThreeSecondsAfterTheLastKey() {
        var notices = PassingNotices()
        notices.volumeChanged(now: 1000)
        notices.volumeChanged(now: 2500)
        notices.expire(now: 5_499)
        #expect(notices.showsVolume)
        notices.expire(now: 5_500)
        #expect(!notices.showsVolume)
    }
}
