import Foundation
import Testing
import ZapperCore

/// Lip sync: pictures earlier against the sound for a display that delays them, held to its range.
@Suite struct LipSyncTests {
    @Test func aDelayShowsPicturesEarlierAndStartsTheSoundInStep() {
        let sync = LipSync(milliseconds: 200)
        #expect(sync.pictureClock(heard: 10) == 10.2)
        #expect(sync.soundStart(pictureTime: 10) == 9.8)
        #expect(LipSync().pictureClock(heard: 10) == 10)
        #expect(LipSync(milliseconds: -40).pictureClock(heard: 10) == 9.96)
    }

    @Test func itIsHeldToItsRangeAndMovesInSteps() {
        #expect(LipSync(milliseconds: 9000).milliseconds == 500)
        #expect(LipSync(milliseconds: -9000).milliseconds == -500)
        #expect(LipSync().stepped(by: 1).milliseconds == LipSync.step)
        #expect(LipSync(milliseconds: 490).stepped(by: 1).milliseconds == 500)
        #expect(LipSync(milliseconds: 40).words == "+40 ms" && LipSync().words == "0 ms" && LipSync(milliseconds: -20).words == "-20 ms")
    }

    @Test func theStateKeepsItHeldToItsRange() throws {
        var state = ZapperState()
        #expect(state.lipSyncMilliseconds == nil)
        state.lipSyncMilliseconds = 60
        #expect(try ZapperState.decode(state.encoded()).lipSyncMilliseconds == 60)
        #expect(try ZapperState.decode(Data(#"{"lipSyncMs": 100000}"#.utf8)).lipSyncMilliseconds == 500)
        #expect(try ZapperState.decode(Data(#"{"lipSyncMs": "soon"}"#.utf8)).lipSyncMilliseconds == nil)
    }
}
