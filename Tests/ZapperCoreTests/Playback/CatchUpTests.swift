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

    /// A fast decoder that waited for its segment: the bytes came late, not the decoder. A
    /// channel played at the live edge gets every key frame a little behind what is heard, and
    /// skipping would skip every group (no picture at all). A slow decoder's group, one whose
    /// segment waited for it, or one far behind, is late.
    @Test func aKeyFrameALittlePastWithAFastDecoderThatWaitedIsDecoded() {
        var catchUp = CatchUp()
        #expect(catchUp.keyFrame(at: 15.47, heard: nil, waiting: false, decoderBusy: 0) == .whole)
        let edge = catchUp.keyFrame(at: 17.47, heard: 17.51, waiting: false, decoderBusy: 0.3)  // 15 % of 2 s
        #expect(edge == .whole && !catchUp.skipping)
        let slow = catchUp.keyFrame(at: 19.47, heard: 19.51, waiting: false, decoderBusy: 0.3 + 1.5)  // 75 %
        #expect(slow == .late && catchUp.skipping && catchUp.decoderBehind, "a slow decoder")
        let unknown = catchUp.keyFrame(at: 21.47, heard: 21.51, waiting: false, decoderBusy: 2)
        #expect(unknown == .late, "after a skipped group the decoder's speed is unknown")
        #expect(catchUp.keyFrame(at: 23.47, heard: 23.4, waiting: false, decoderBusy: 2) == .whole)
        let backlog = catchUp.keyFrame(at: 25.47, heard: 25.51, waiting: true, decoderBusy: 2.2)
        #expect(backlog == .late && catchUp.decoderBehind, "its segment waited for the decoder")
        #expect(catchUp.keyFrame(at: 27.47, heard: 27.4, waiting: false, decoderBusy: 2.2) == .whole)
        let farBehind = catchUp.keyFrame(at: 29.47, heard: 29.47 + CatchUp.slack + 0.01, waiting: false, decoderBusy: 2.4)
        #expect(farBehind == .late, "the bytes came so late that the group cannot be caught up")
        #expect(!catchUp.decoderBehind, "the network's lateness, not the box's")
    }
}
