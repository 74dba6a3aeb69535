import Testing
@testable import ZapperCore

@Suite struct CatchUpTests {
    @Test func aGroupWhoseKeyFrameIsAlreadyPastIsSkipped() {
        var catchUp = CatchUp()
        let unheard = catchUp.keyFrame(at: 10, heard: nil)
        #expect(unheard == .whole, "nothing heard yet")
        #expect(!catchUp.skipping)
        let past = catchUp.keyFrame(at: 12, heard: 12.5)
        #expect(past == .late && catchUp.skipping, "past")
        let ahead = catchUp.keyFrame(at: 14, heard: 13.9)
        #expect(ahead == .whole && !catchUp.skipping, "ahead again")
    }

    @Test func untimedOrNonsenseTimesDecodeWhole() {
        var catchUp = CatchUp()
        catchUp.keyFrame(at: 1, heard: 5)
        for (time, heard) in [(nil, 5.0), (Double.nan, 5), (1, .infinity), (-.infinity, 0)] as [(Double?, Double?)] {
            let skipped = catchUp.keyFrame(at: time, heard: heard)
            #expect(skipped == .whole && !catchUp.skipping)
        }
    }

    @Test func aGroupTooLargeForTheBoxIsSkipped() {
        var catchUp = CatchUp()
        let large = catchUp.keyFrame(at: 10, heard: 9, tooLarge: true)
        #expect(large == .tooLarge && catchUp.skipping)
        let lateAndLarge = catchUp.keyFrame(at: 12, heard: 13, tooLarge: true)
        #expect(lateAndLarge == .late, "late is told first")
        let smaller = catchUp.keyFrame(at: 14, heard: 13)
        #expect(smaller == .whole && !catchUp.skipping)
    }

    @Test func aGroupFarBehindWhileDecodedIsGivenUpAtThatPicture() {
        var catchUp = CatchUp()
        #expect(catchUp.keyFrame(at: 10, heard: 9.9) == .whole)
        // A little behind: decoded on (the decoder catches up within the group).
        #expect(!catchUp.picture(at: 10.5, heard: 10.9) && !catchUp.skipping)
        #expect(!catchUp.picture(at: 10.6, heard: 10.6 + CatchUp.giveUpBehind) && !catchUp.skipping)
        // Far behind: given up once, then skipped to the next key frame.
        #expect(catchUp.picture(at: 10.7, heard: 11.3) && catchUp.skipping)
        #expect(!catchUp.picture(at: 10.8, heard: 11.5) && catchUp.skipping, "told once")
        #expect(catchUp.keyFrame(at: 12, heard: 11.6) == .whole && !catchUp.skipping)
        // Nothing heard yet, or no time: never given up.
        #expect(!catchUp.picture(at: 12.1, heard: nil) && !catchUp.picture(at: nil, heard: 20) && !catchUp.picture(at: .nan, heard: 20))
        #expect(!catchUp.skipping)
    }
}
