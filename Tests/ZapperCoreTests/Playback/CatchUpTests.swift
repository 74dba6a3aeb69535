import Testing
@testable import ZapperCore

@Suite struct CatchUpTests {
    @Test func aGroupWhoseKeyFrameIsAlreadyPastIsSkipped() {
        var catchUp = CatchUp()
        let unheard = catchUp.keyFrame(at: 10, heard: nil, waiting: true)
        #expect(unheard == .whole, "nothing heard yet")
        #expect(!catchUp.skipping)
        let past = catchUp.keyFrame(at: 12, heard: 12.5, waiting: true)
        #expect(past == .late && catchUp.skipping, "past")
        let ahead = catchUp.keyFrame(at: 14, heard: 13.9, waiting: true)
        #expect(ahead == .whole && !catchUp.skipping, "ahead again")
    }

    @Test func untimedOrNonsenseTimesDecodeWhole() {
        var catchUp = CatchUp()
        catchUp.keyFrame(at: 1, heard: 5, waiting: true)
        for (time, heard) in [(nil, 5.0), (Double.nan, 5), (1, .infinity), (-.infinity, 0)] as [(Double?, Double?)] {
            let skipped = catchUp.keyFrame(at: time, heard: heard, waiting: true)
            #expect(skipped == .whole && !catchUp.skipping)
        }
    }

    @Test func aGroupTooLargeForTheBoxIsSkipped() {
        var catchUp = CatchUp()
        let large = catchUp.keyFrame(at: 10, heard: 9, waiting: true, tooLarge: true)
        #expect(large == .tooLarge && catchUp.skipping)
        let lateAndLarge = catchUp.keyFrame(at: 12, heard: 13, waiting: true, tooLarge: true)
        #expect(lateAndLarge == .late, "late is told first")
        let smaller = catchUp.keyFrame(at: 14, heard: 13, waiting: true)
        #expect(smaller == .whole && !catchUp.skipping)
    }

    /// With the decoder having waited for the segment the bytes came late, not the decoder: a
    /// channel played at the live edge gets every key frame a little behind what is heard, and
    /// skipping would skip every group (no picture at all); by more than the slack, it is late.
    @Test func aKeyFramePastWithNothingWaitingIsDecoded() {
        var catchUp = CatchUp()
        let edge = catchUp.keyFrame(at: 17.47, heard: 17.51, waiting: false)
        #expect(edge == .whole && !catchUp.skipping)
        let backlog = catchUp.keyFrame(at: 19.47, heard: 19.51, waiting: true)
        #expect(backlog == .late && catchUp.skipping)
        let farBehind = catchUp.keyFrame(at: 21.47, heard: 21.47 + CatchUp.slack + 0.01, waiting: false)
        #expect(farBehind == .late && catchUp.skipping, "the bytes came so late that the group cannot be caught up")
    }
}
