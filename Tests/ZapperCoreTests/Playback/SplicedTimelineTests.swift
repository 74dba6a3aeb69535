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

    /// A raw stream whose clock starts again an hour on (then an hour back) inside one
    /// connection: picture (1) and sound (2) carry on from where they were due, in step
    /// as the new clock has them.
    @Test func aContinuousStreamsClockJumpsAreMendedInStep() {
        var timeline = SplicedTimeline()
        _ = timeline.beginSegment(discontinuity: 0, stream: true)
        timeline.anchor(firstTime: 100)
        for frame in 0..<30 {
            _ = timeline.place(stream: 1, seconds: 100 + Double(frame) * 0.04, duration: 0.04)
            _ = timeline.place(stream: 2, seconds: 100 + Double(frame) * 0.04, duration: 0.04)
        }
        // Due next: 101.2 for both. The new clock: the picture at 3700.5, the sound at 3700.45.
        #expect(close(timeline.place(stream: 1, seconds: 3700.5, duration: 0.04), 101.2))
        #expect(close(timeline.place(stream: 2, seconds: 3700.45, duration: 0.04), 101.15), "the sound 50 ms ahead, as on the new clock")
        #expect(close(timeline.place(stream: 1, seconds: 3700.54, duration: 0.04), 101.24))
        #expect(timeline.jumps == 2)
        // An hour back.
        #expect(close(timeline.place(stream: 1, seconds: 20, duration: 0.04), 101.28))
        #expect(close(timeline.place(stream: 2, seconds: 20, duration: 0.04), 101.28))
        #expect(timeline.jumps == 4)
        #expect(timeline.end.map { $0 < 102 } == true)
    }

    /// A live stream's frames may come later than due (a gap at the source): within
    /// `forwardJump` they keep their own times; a frame a little early too.
    @Test func smallGapsInAStreamKeepTheirTimes() {
        var timeline = SplicedTimeline()
        _ = timeline.beginSegment(discontinuity: 0, stream: true)
        timeline.anchor(firstTime: 10)
        _ = timeline.place(stream: 1, seconds: 10, duration: 0.04)
        #expect(close(timeline.place(stream: 1, seconds: 12.5, duration: 0.04), 12.5))
        #expect(close(timeline.place(stream: 1, seconds: 12.3, duration: 0.04), 12.3))
        #expect(timeline.jumps == 0)
    }

    /// Segments carry their discontinuities in the playlist: their times are not mended;
    /// and a stream's next connection (a new discontinuity) starts without corrections.
    @Test func segmentsAreNotMendedAndANewConnectionStartsAfresh() {
        var segments = SplicedTimeline()
        _ = segments.beginSegment(discontinuity: 0)
        segments.anchor(firstTime: 10)
        _ = segments.place(stream: 1, seconds: 10, duration: 0.04)
        #expect(close(segments.place(stream: 1, seconds: 500, duration: 0.04), 500))

        var stream = SplicedTimeline()
        _ = stream.beginSegment(discontinuity: 0, stream: true)
        stream.anchor(firstTime: 10)
        _ = stream.place(stream: 1, seconds: 10, duration: 0.04)
        #expect(close(stream.place(stream: 1, seconds: 500, duration: 0.04), 10.04))
        let spliced = stream.beginSegment(discontinuity: 1, stream: true)
        #expect(spliced)
        stream.anchor(firstTime: 70)
        #expect(close(stream.place(stream: 1, seconds: 70, duration: 0.04), 10.08), "spliced onto the end, no old correction")
        #expect(close(stream.place(stream: 1, seconds: 70.04, duration: 0.04), 10.12))
    }
}

/// Times summed from frame durations are not exact in binary.
private func close(_ time: Double?, _ expected: Double) -> Bool {
    time.map { abs($0 - expected) < 1e-9 } ?? false
}
