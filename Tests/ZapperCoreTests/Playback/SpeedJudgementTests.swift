import Synchronization
import Testing
import ZapperCore

/// A shared judgement of the box's speed tells the log when it is made and when it lapses.
struct SpeedJudgementTests {
    final class Recorder: Sendable {
        let clock = Mutex(0.0)
        let told = Mutex<[String]>([])

        func judgement() -> SpeedJudgement {
            SpeedJudgement(firstHold: 600, now: { self.clock.withLock { $0 } }) { size, held in
                self.told.withLock { $0.append("\(size) after \(held)") }
            }
        }
    }

    @Test func aLapseIsToldOnceWithTheSizeAndHowLongItHeld() {
        let recorder = Recorder()
        let judgement = recorder.judgement()
        let made = [judgement.tooSlow(width: 1920, height: 1080), judgement.tooSlow(width: 1280, height: 720),
                    judgement.tooSlow(width: 1920, height: 1080)]
        #expect(made == ["10 minutes", "10 minutes", nil], "only a smaller size is news")
        recorder.clock.withLock { $0 = 599 }
        #expect(judgement.pixels == 1280 * 720 && recorder.told.withLock { $0 }.isEmpty)
        recorder.clock.withLock { $0 = 600 }
        let lapsed = [judgement.pixels, judgement.pixels]
        #expect(lapsed == [nil, nil])
        #expect(recorder.told.withLock { $0 } == ["1280x720 after 10 minutes"], "told once")
    }

    @Test func aLapseNoOneAskedAboutIsToldBeforeTheJudgementIsMadeAgain() {
        let recorder = Recorder()
        let judgement = recorder.judgement()
        _ = judgement.tooSlow(width: 1280, height: 720)
        recorder.clock.withLock { $0 = 5_000 }
        #expect(judgement.tooSlow(width: 1920, height: 1080) == "20 minutes")
        #expect(recorder.told.withLock { $0 } == ["1280x720 after 10 minutes"])
        #expect(judgement.pixels == 1920 * 1080)
    }
}
