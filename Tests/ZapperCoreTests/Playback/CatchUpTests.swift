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
}
