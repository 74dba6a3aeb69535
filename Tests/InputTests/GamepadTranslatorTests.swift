import Testing
import ZapperCore
import ZapperInput

@Suite struct GamepadTranslatorTests {
    let pad = "Xbox Wireless Controller"
    /// An Xbox-style stick: -32768...32767 with a small hardware dead zone.
    let axes: [UInt16: AxisInfo] = [
        axis("ABS_X", 0).code: AxisInfo(minimum: -32768, maximum: 32767, flat: 128),
        axis("ABS_Y", 0).code: AxisInfo(minimum: -32768, maximum: 32767, flat: 128),
    ]

    func translate(_ stream: [InputEventRecord], axes: [UInt16: AxisInfo]? = nil) -> [KeyEvent] {
        var translator = GamepadTranslator(device: pad, axes: axes ?? self.axes)
        return stream.flatMap { translator.translate($0) }
    }

    @Test func buttonsKeepTheirNames() {
        let stream = [key("BTN_SOUTH", 1), syn(), key("BTN_SOUTH", 0), syn(), key("BTN_EAST", 1), key("BTN_TR", 1), syn(),
                      key("BTN_EAST", 0), key("BTN_TR", 0), syn()]
        #expect(translate(stream) == [press("BTN_SOUTH", pad), release("BTN_SOUTH", pad), press("BTN_EAST", pad),
                                      press("BTN_TR", pad), release("BTN_EAST", pad), release("BTN_TR", pad)])
    }

    @Test func dpadButtonsPassThrough() {
        #expect(translate([key("BTN_DPAD_UP", 1), syn(), key("BTN_DPAD_UP", 0), syn()])
            == [press("BTN_DPAD_UP", pad), release("BTN_DPAD_UP", pad)])
    }

    @Test func hatBecomesDpadButtons() {
        let stream = [axis("ABS_HAT0X", -1), syn(), axis("ABS_HAT0X", 0), syn(),
                      axis("ABS_HAT0Y", -1), syn(), axis("ABS_HAT0Y", 0), syn(),
                      axis("ABS_HAT0Y", 1), syn(), axis("ABS_HAT0Y", 0), syn(),
                      axis("ABS_HAT0X", 1), syn(), axis("ABS_HAT0X", 0), syn()]
        #expect(translate(stream) == [
            press("BTN_DPAD_LEFT", pad), release("BTN_DPAD_LEFT", pad),
            press("BTN_DPAD_UP", pad), release("BTN_DPAD_UP", pad),
            press("BTN_DPAD_DOWN", pad), release("BTN_DPAD_DOWN", pad),
            press("BTN_DPAD_RIGHT", pad), release("BTN_DPAD_RIGHT", pad),
        ])
    }

    @Test func hatRockedStraightAcrossReleasesBeforeItPresses() {
        #expect(translate([axis("ABS_HAT0X", -1), syn(), axis("ABS_HAT0X", 1), syn(), axis("ABS_HAT0X", 0), syn()]) == [
            press("BTN_DPAD_LEFT", pad), release("BTN_DPAD_LEFT", pad), press("BTN_DPAD_RIGHT", pad),
            release("BTN_DPAD_RIGHT", pad),
        ])
    }

    @Test func onePushOfTheStickIsOnePress() {
        // Up is the negative Y direction on evdev.
        let push: [Int32] = [0, -5000, -12000, -18000, -25000, -32768, -30000, -20000, -12000, -6000, 0]
        #expect(translate(push.flatMap { [axis("ABS_Y", $0), syn()] }) == [press("BTN_DPAD_UP", pad), release("BTN_DPAD_UP", pad)])
        let right: [Int32] = [0, 20000, 32767, 9000, 0]
        #expect(translate(right.flatMap { [axis("ABS_X", $0), syn()] }) == [press("BTN_DPAD_RIGHT", pad), release("BTN_DPAD_RIGHT", pad)])
    }

    @Test func noChatterAroundEitherThreshold() {
        // Wobbling around the 50% press threshold after a press, and between the
        // thresholds, gives nothing; only coming back inside 30% releases.
        let half: Int32 = 16384, third: Int32 = 9830
        let wobble: [Int32] = [0, half + 200, half - 200, half + 300, half - 3000, half + 100, third + 200, half - 100,
                               third + 50, third - 200, third + 100, third - 100, half - 500, 0]
        #expect(translate(wobble.flatMap { [axis("ABS_X", $0), syn()] }) == [press("BTN_DPAD_RIGHT", pad), release("BTN_DPAD_RIGHT", pad)])
        // Never past half: nothing at all.
        let timid: [Int32] = [0, 8000, 15000, half - 400, 12000, half - 50, 0]
        #expect(translate(timid.flatMap { [axis("ABS_X", $0), syn()] }).isEmpty)
    }

    @Test func pressesAndReleasesAlternateUnderNoise() {
        // A stick drifting randomly: whatever it does, each direction alternates
        // press, release, and a press only ever follows a reading past half.
        var generator = SplitMix(seed: 7)
        var translator = GamepadTranslator(device: pad, axes: axes)
        var value: Int32 = 0
        var held: Set<String> = []
        for _ in 0..<20_000 {
            value = max(-32768, min(32767, value + Int32(truncatingIfNeeded: Int(generator.next() % 8001) - 4000)))
            for event in translator.translate(axis("ABS_X", value)) {
                switch event.kind {
                case .press:
                    #expect(!held.contains(event.name))
                    #expect(abs(Double(value)) > 16_000, "pressed at \(value)")
                    held.insert(event.name)
                case .release:
                    #expect(held.contains(event.name))
                    held.remove(event.name)
                }
            }
            #expect(held.count <= 1)
        }
    }

    @Test func aWideHardwareDeadZoneWidensTheReleaseZone() {
        // flat = 40% of the half range: the stick must come back inside 40%, and
        // pressing takes 60%.
        let sloppy: [UInt16: AxisInfo] = [axis("ABS_X", 0).code: AxisInfo(minimum: 0, maximum: 255, flat: 51)]
        #expect(translate([axis("ABS_X", 128 + 70), syn()], axes: sloppy).isEmpty)        // 55%
        let stream: [Int32] = [128 + 80, 128 + 56, 128 + 49, 128]                            // 63%, 44%, 38%, 0
        #expect(translate(stream.map { axis("ABS_X", $0) }, axes: sloppy) == [press("BTN_DPAD_RIGHT", pad), release("BTN_DPAD_RIGHT", pad)])
    }

    @Test func aStickWithoutRangeIsIgnoredAndOtherAxesToo() {
        #expect(translate([axis("ABS_X", 30000), axis("ABS_RX", -30000), axis("ABS_Z", 255), syn()], axes: [:]).isEmpty)
    }

    @Test func unpluggingReleasesHeldButtonsAndDirections() {
        var translator = GamepadTranslator(device: pad, axes: axes)
        _ = translator.translate(key("BTN_SOUTH", 1))
        _ = translator.translate(axis("ABS_HAT0X", 1))
        #expect(translator.releaseAll() == [release("BTN_SOUTH", pad), release("BTN_DPAD_RIGHT", pad)])
        // The hat counts as centred again: a new push is a new press.
        #expect(translator.translate(axis("ABS_HAT0X", 1)) == [press("BTN_DPAD_RIGHT", pad)])
    }
}

/// A small deterministic generator, so a failure repeats.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
