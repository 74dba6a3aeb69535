/// Turns one finger's touch into a vertical swipe (DESIGN §7): the finger
/// travels up or down more than `minTravel` of the screen height, within
/// `maxDuration` milliseconds, mostly vertically (at least twice as far as
/// sideways). Positions are in screen pixels, y growing downwards. A second
/// finger cancels the gesture. Swipes are bound like keys: `SWIPE_UP`, `SWIPE_DOWN`.
public struct SwipeDetector: Sendable {
    public enum Swipe: String, Sendable, Equatable {
        case up = "SWIPE_UP"
        case down = "SWIPE_DOWN"

        /// The pseudo key name a keymap binds.
        public var keyName: String { rawValue }
    }

    public var screenHeight: Double
    public var minTravel = 0.15
    public var maxDuration = 600

    private var slot: Int?
    private var start = (x: 0.0, y: 0.0, time: 0)
    private var last = (x: 0.0, y: 0.0)
    private var cancelled = false

    public init(screenHeight: Double) {
        self.screenHeight = screenHeight
    }

    /// A finger touched down in `slot`.
    public mutating func down(slot: Int, x: Double, y: Double, now: Int) {
        if self.slot != nil {
            cancelled = true
            return
        }
        self.slot = slot
        start = (x, y, now)
        last = (x, y)
        cancelled = false
    }

    /// The finger in `slot` moved.
    public mutating func motion(slot: Int, x: Double, y: Double, now: Int) {
        guard slot == self.slot else { return }
        last = (x, y)
    }

    /// The finger in `slot` lifted: the swipe it made, if any.
    public mutating func up(slot: Int, now: Int) -> Swipe? {
        guard slot == self.slot else { return nil }
        self.slot = nil
        guard !cancelled, now - start.time <= maxDuration else { return nil }
        let dx = last.x - start.x, dy = last.y - start.y
        guard abs(dy) > minTravel * screenHeight, abs(dy) >= 2 * abs(dx) else { return nil }
        return dy < 0 ? .up : .down
    }

    /// The touch was cancelled (libinput's touch cancel): forget it.
    public mutating func cancel() {
        slot = nil
        cancelled = false
    }
}
