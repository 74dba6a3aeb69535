import Testing
import ZapperCore

/// One timeline across discontinuities: each new part continues where the last ended.
struct SplicedTimelineTests {
    @Test func theFirstSegmentStartsWhereItsTimestampsDo() {
        var timeline = SplicedTimeline()
        let result1 = timeline.beginSegment(discontinuity: 4)
        #expect(!result1)
        let result2 = timeline.anchor(firstTime: 1000)
        #expect(result2)
        let result3 = timeline.anchor(firstTime: 1001)
        #expect(!result3)  // once per segment
        #expect(timeline.offset == 0)
        let result4 = timeline.place(stream: 1, seconds: 1000, duration: 0.5)
        #expect(result4 == 1000)
        #expect(timeline.end == 1000.5)
    }

    @Test func aDiscontinuityContinuesFromTheEndOfTheLastOne() {
        var timeline = SplicedTimeline()
        _ = timeline.beginSegment(discontinuity: 0)
        timeline.anchor(firstTime: 50)
        _ = timeline.place(stream: 1, seconds: 50, duration: 2)
        _ = timeline.place(stream: 2, seconds: 51.5, duration: 1)  // sound reaching 52.5
        // The same discontinuity: no splice, the offset stays.
        let result5 = timeline.beginSegment(discontinuity: 0)
        #expect(!result5)
        timeline.anchor(firstTime: 52)
        #expect(timeline.offset == 0)
        // A new one whose timestamps start again at 10 (a looped origin).
        let result6 = timeline.beginSegment(discontinuity: 1)
        #expect(result6)
        timeline.anchor(firstTime: 10)
        #expect(timeline.offset == 42.5)
        let result7 = timeline.place(stream: 1, seconds: 10, duration: 2)
        #expect(result7 == 52.5)
        // Its later segments keep that offset.
        let result8 = timeline.beginSegment(discontinuity: 1)
        #expect(!result8)
        timeline.anchor(firstTime: 12)
        let result9 = timeline.place(stream: 1, seconds: 12, duration: 2)
        #expect(result9 == 54.5)
    }

    @Test func framesWithoutATimestampFollowTheirStreamsLast() {
        var timeline = SplicedTimeline()
        _ = timeline.beginSegment(discontinuity: 0)
        let result10 = timeline.place(stream: 2, seconds: nil, duration: 0.02)
        #expect(result10 == nil)
        timeline.anchor(firstTime: 3)
        let result11 = timeline.place(stream: 2, seconds: 3, duration: 0.02)
        #expect(result11 == 3)
        let result12 = timeline.place(stream: 2, seconds: nil, duration: 0.02)
        #expect(result12 == 3.02)
        let result13 = timeline.place(stream: 1, seconds: nil, duration: 0.02)
        #expect(result13 == nil)
    }

    @Test func aFollowerTakesItsOffsetAndForgetsOldTimestampsAtASplice() {
        var timeline = SplicedTimeline()
        let result14 = timeline.follow(discontinuity: 0, offset: 5)
        #expect(!result14)
        let result15 = timeline.place(stream: 0, seconds: 1, duration: 0.5)
        #expect(result15 == 6)
        let result16 = timeline.place(stream: 0, seconds: nil, duration: 0.5)
        #expect(result16 == 6.5)
        let result17 = timeline.follow(discontinuity: 0, offset: 5)
        #expect(!result17)
        let result18 = timeline.follow(discontinuity: 1, offset: 40)
        #expect(result18)
        let result19 = timeline.place(stream: 0, seconds: nil, duration: 0.5)
        #expect(result19 == nil)
        let result20 = timeline.place(stream: 0, seconds: 2, duration: 0.5)
        #expect(result20 == 42)
    }

    @Test func hostileTimesArePlacedNowhere() {
        var timeline = SplicedTimeline()
        _ = timeline.beginSegment(discontinuity: 0)
        timeline.anchor(firstTime: 0)
        let result21 = timeline.place(stream: 1, seconds: .nan, duration: 1)
        #expect(result21 == nil)
        let result22 = timeline.place(stream: 1, seconds: .infinity, duration: 1)
        #expect(result22 == nil)
        let result23 = timeline.place(stream: 1, seconds: 1, duration: .nan)
        #expect(result23 == 1)
        #expect(timeline.end == 1)
    }
}
