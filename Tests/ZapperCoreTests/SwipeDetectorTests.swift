import Testing
@testable import ZapperCore

/// One finger from (x0, y0) to (x1, y1) in `duration` ms on a 1080-pixel-high screen.
func swipe(from start: (Double, Double), to end: (Double, Double), duration: Int = 200) -> SwipeDetector.Swipe? {
    var detector = SwipeDetector(screenHeight: 1080)
    detector.down(slot: 0, x: start.0, y: start.1, now: 1_000)
    for step in 1...4 {
        let f = Double(step) / 4
        detector.motion(slot: 0, x: start.0 + (end.0 - start.0) * f, y: start.1 + (end.1 - start.1) * f,
                        now: 1_000 + duration * step / 4)
    }
    return detector.up(slot: 0, now: 1_000 + duration)
}

@Suite struct SwipeDetectorTests {
    @Test func verticalFlicksAreSwipes() {
        #expect(swipe(from: (900, 800), to: (920, 500)) == .up)
        #expect(swipe(from: (900, 300), to: (880, 600)) == .down)
        #expect(SwipeDetector.Swipe.up.keyName == "SWIPE_UP" && Keymap.defaults["SWIPE_UP"] == .panel)
    }

    @Test func shortSlowOrSidewaysMovesAreNot() {
        #expect(swipe(from: (900, 800), to: (900, 650)) == nil)  // 150 px < 15% of 1080
        #expect(swipe(from: (900, 800), to: (900, 600)) == .up)  // 200 px is enough
        #expect(swipe(from: (900, 800), to: (900, 500), duration: 700) == nil)  // too slow
        #expect(swipe(from: (900, 800), to: (1_100, 500)) == nil)  // too diagonal
        #expect(swipe(from: (900, 800), to: (1_040, 500)) == .up)  // mostly vertical
    }

    @Test func aSecondFingerCancelsTheGesture() {
        var detector = SwipeDetector(screenHeight: 1080)
        detector.down(slot: 0, x: 500, y: 800, now: 0)
        detector.down(slot: 1, x: 700, y: 800, now: 10)
        detector.motion(slot: 0, x: 500, y: 300, now: 100)
        #expect(detector.up(slot: 1, now: 150) == nil)
        #expect(detector.up(slot: 0, now: 200) == nil)
        // The next single-finger swipe counts again.
        detector.down(slot: 0, x: 500, y: 300, now: 1_000)
        detector.motion(slot: 0, x: 500, y: 800, now: 1_100)
        #expect(detector.up(slot: 0, now: 1_200) == .down)
    }
}
