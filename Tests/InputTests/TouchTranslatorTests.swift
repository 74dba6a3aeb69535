import Testing
import ZapperCore
import ZapperInput

@Suite struct TouchTranslatorTests {
    let screen = "ILITEK Multi-Touch"
    /// A 4096 x 4096 panel: the same range for the single-touch and multitouch axes.
    let axes: [UInt16: AxisInfo] = Dictionary(uniqueKeysWithValues: ["ABS_X", "ABS_Y", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"]
        .map { (axis($0, 0).code, AxisInfo(minimum: 0, maximum: 4095)) })

    /// A finger going down at (x, y) at time `t0`, moving through `path`, lifting at the last point.
    /// The panel reports it the multitouch way (slot 0, tracking id) and the single-touch way.
    func stroke(from start: (Int32, Int32), through path: [(Int32, Int32)], t0: Double = 10, step: Double = 0.05) -> [InputEventRecord] {
        var events = [axis("ABS_MT_SLOT", 0, at: t0), axis("ABS_MT_TRACKING_ID", 7, at: t0),
                      axis("ABS_MT_POSITION_X", start.0, at: t0), axis("ABS_MT_POSITION_Y", start.1, at: t0),
                      key("BTN_TOUCH", 1, at: t0), axis("ABS_X", start.0, at: t0), axis("ABS_Y", start.1, at: t0), syn(at: t0)]
        var t = t0
        for point in path {
            t += step
            events += [axis("ABS_MT_POSITION_X", point.0, at: t), axis("ABS_MT_POSITION_Y", point.1, at: t),
                       axis("ABS_X", point.0, at: t), axis("ABS_Y", point.1, at: t), syn(at: t)]
        }
        t += step
        events += [axis("ABS_MT_TRACKING_ID", -1, at: t), key("BTN_TOUCH", 0, at: t), syn(at: t)]
        return events
    }

    func translate(_ events: [InputEventRecord]) -> [KeyEvent] {
        var translator = TouchTranslator(device: screen, axes: axes)
        return events.flatMap { translator.translate($0) }
    }

    @Test func aQuickUpwardStrokeIsSwipeUp() {
        let events = translate(stroke(from: (2000, 3000), through: [(2010, 2700), (2030, 2300), (2040, 1900)]))
        #expect(events == [press("SWIPE_UP", screen), release("SWIPE_UP", screen)])
    }

    @Test func aQuickDownwardStrokeIsSwipeDown() {
        let events = translate(stroke(from: (1000, 500), through: [(990, 900), (980, 1400)]))
        #expect(events == [press("SWIPE_DOWN", screen), release("SWIPE_DOWN", screen)])
    }

    @Test func singleTouchPanelsSwipeToo() {
        // An older panel without multitouch axes: ABS_X/Y and BTN_TOUCH only.
        let events = [key("BTN_TOUCH", 1, at: 1), axis("ABS_X", 2000, at: 1), axis("ABS_Y", 3500, at: 1), syn(at: 1),
                      axis("ABS_Y", 2500, at: 1.1), syn(at: 1.1), key("BTN_TOUCH", 0, at: 1.2), syn(at: 1.2)]
        #expect(translate(events) == [press("SWIPE_UP", screen), release("SWIPE_UP", screen)])
    }

    @Test func aTapIsNotASwipe() {
        #expect(translate(stroke(from: (2000, 2000), through: [(2004, 1996)])).isEmpty)
        #expect(translate(stroke(from: (2000, 2000), through: [])).isEmpty)
    }

    @Test func aShortStrokeIsNotASwipe() {
        // 14% of the height: under the 15% it takes.
        #expect(translate(stroke(from: (2000, 2000), through: [(2000, 1700), (2000, 1427)])).isEmpty)
        #expect(translate(stroke(from: (2000, 2000), through: [(2000, 1700), (2000, 1380)])).count == 2)
    }

    @Test func aSlowDragIsNotASwipe() {
        // 1000 units up over 0.8 s.
        #expect(translate(stroke(from: (2000, 3000), through: [(2000, 2700), (2000, 2300), (2000, 2000)], step: 0.2)).isEmpty)
    }

    @Test func aSidewaysOrDiagonalStrokeIsNotASwipe() {
        #expect(translate(stroke(from: (500, 2000), through: [(1500, 2000), (2500, 2050)])).isEmpty)
        #expect(translate(stroke(from: (500, 3000), through: [(1000, 2500), (1500, 2000)])).isEmpty)
    }

    @Test func aSecondFingerDoesNotSteerTheFirst() {
        // Finger 1 stays put in slot 0 while finger 2 (slot 1) moves far up.
        let events = [axis("ABS_MT_SLOT", 0, at: 0), axis("ABS_MT_TRACKING_ID", 1, at: 0),
                      axis("ABS_MT_POSITION_X", 2000, at: 0), axis("ABS_MT_POSITION_Y", 2000, at: 0),
                      key("BTN_TOUCH", 1, at: 0), syn(at: 0),
                      axis("ABS_MT_SLOT", 1, at: 0.05), axis("ABS_MT_TRACKING_ID", 2, at: 0.05),
                      axis("ABS_MT_POSITION_X", 3000, at: 0.05), axis("ABS_MT_POSITION_Y", 3500, at: 0.05), syn(at: 0.05),
                      axis("ABS_MT_POSITION_Y", 500, at: 0.1), syn(at: 0.1),
                      axis("ABS_MT_TRACKING_ID", -1, at: 0.15), axis("ABS_MT_SLOT", 0, at: 0.15),
                      axis("ABS_MT_TRACKING_ID", -1, at: 0.15), key("BTN_TOUCH", 0, at: 0.15), syn(at: 0.15)]
        #expect(translate(events).isEmpty)
    }

    @Test func droppedEventsCancelTheStroke() {
        var events = stroke(from: (2000, 3000), through: [(2000, 2500), (2000, 2000)])
        events.insert(ev("EV_SYN", "SYN_DROPPED", 0, at: 10.05), at: 9)
        #expect(translate(events).isEmpty)
    }
}

@Suite struct SwipeRecognizerTests {
    @Test func theRuleInScreenFractions() {
        var recognizer = SwipeRecognizer()
        recognizer.down(x: 0.5, y: 0.8, time: 3)
        recognizer.move(x: 0.52, y: 0.6)
        #expect(recognizer.isTouching)
        #expect(recognizer.up(time: 3.3) == .up)
        #expect(!recognizer.isTouching)

        recognizer.down(x: 0.5, y: 0.2, time: 4)
        recognizer.move(x: 0.5, y: 0.4)
        #expect(recognizer.up(time: 4.6) == .down)           // exactly 600 ms still counts

        recognizer.down(x: 0.5, y: 0.2, time: 5)
        recognizer.move(x: 0.5, y: 0.4)
        #expect(recognizer.up(time: 5.61) == nil)            // too slow

        recognizer.down(x: 0.2, y: 0.2, time: 6)
        recognizer.move(x: 0.31, y: 0.4)
        #expect(recognizer.up(time: 6.2) == nil)             // not mostly vertical (dy < 2 dx)

        #expect(recognizer.up(time: 7) == nil)               // a lift without a touch
        #expect(SwipeRecognizer.Direction.up.keyName == "SWIPE_UP")
        #expect(SwipeRecognizer.Direction.down.keyName == "SWIPE_DOWN")
    }
}
