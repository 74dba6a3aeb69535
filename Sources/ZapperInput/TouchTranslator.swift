import ZapperCore

/// A touchscreen's raw events -> `SWIPE_UP` / `SWIPE_DOWN` (a press and a
/// release at the moment the finger lifts). Follows the first finger: the
/// single-touch axes (`ABS_X/Y`) or multitouch slot 0 (`ABS_MT_POSITION_X/Y`),
/// with `BTN_TOUCH` for down and up; a frame ends at `SYN_REPORT`.
public struct TouchTranslator: Sendable {
    public let device: String
    private let axes: [UInt16: AxisInfo]
    private var recognizer = SwipeRecognizer()
    private var slot: Int32 = 0
    private var x = 0.0, y = 0.0
    private var touchChanged: Bool?      // in this frame: true = went down, false = lifted

    public init(device: String, axes: [UInt16: AxisInfo], recognizer: SwipeRecognizer = SwipeRecognizer()) {
        self.device = device
        self.axes = axes
        self.recognizer = recognizer
    }

    public mutating func translate(_ event: InputEventRecord) -> [KeyEvent] {
        switch (event.type, event.code) {
        case (Code.key, Code.btnTouch):
            if event.value == 1 { touchChanged = true } else if event.value == 0 { touchChanged = false }
        case (Code.abs, Code.mtSlot):
            slot = event.value
        case (Code.abs, Code.absX),
             (Code.abs, Code.mtX) where slot == 0:     // only the first finger's multitouch slot
            if let info = axes[event.code] { x = info.fraction(event.value) }
        case (Code.abs, Code.absY),
             (Code.abs, Code.mtY) where slot == 0:
            if let info = axes[event.code] { y = info.fraction(event.value) }
        case (Code.syn, Code.synDropped):
            recognizer.cancel()
            touchChanged = nil
        case (Code.syn, Code.synReport):
            return endFrame(time: event.time)
        default:
            break
        }
        return []
    }

    private mutating func endFrame(time: Double) -> [KeyEvent] {
        defer { touchChanged = nil }
        switch touchChanged {
        case true?:
            recognizer.down(x: x, y: y, time: time)
        case false?:
            recognizer.move(x: x, y: y)
            guard let swipe = recognizer.up(time: time) else { return [] }
            return [KeyEvent(name: swipe.keyName, kind: .press, device: device),
                    KeyEvent(name: swipe.keyName, kind: .release, device: device)]
        case nil:
            recognizer.move(x: x, y: y)
        }
        return []
    }
}
