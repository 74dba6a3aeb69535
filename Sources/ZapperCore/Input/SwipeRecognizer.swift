/// Tells a vertical swipe from a tap or a drift on a touchscreen. Positions
/// are fractions of the screen (0...1 each way, y growing downwards, as touch
/// panels report); times are seconds on any monotonic clock.
///
/// A swipe is a touch that, between going down and lifting, travels more than
/// `minimumTravel` of the screen height, takes at most `maximumDuration`, and
/// moves at least `verticalDominance` times as far vertically as sideways.
public struct SwipeRecognizer: Sendable {
    public enum Direction: Sendable, Equatable {
        case up, down

        /// The pseudo key a swipe becomes.
        public var keyName: String { self == .up ? KeyEvent.swipeUp : KeyEvent.swipeDown }
    }

    public var minimumTravel: Double
    public var maximumDuration: Double
    public var verticalDominance: Double

    private var start: (x: Double, y: Double, time: Double)?
    private var last: (x: Double, y: Double)?

    public init(minimumTravel: Double = 0.15, maximumDuration: Double = 0.6, verticalDominance: Double = 2) {
        self.minimumTravel = minimumTravel
        self.maximumDuration = maximumDuration
        self.verticalDominance = verticalDominance
    }

    /// Whether a finger is down.
    public var isTouching: Bool { start != nil }

    public mutating func down(x: Double, y: Double, time: Double) {
        start = (x, y, time)
        last = (x, y)
    }

    public mutating func move(x: Double, y: Double) {
        guard start != nil else { return }
        last = (x, y)
    }

    /// The finger lifted: the swipe it made, if it was one.
    public mutating func up(time: Double) -> Direction? {
        defer { start = nil; last = nil }
        guard let start, let last, time - start.time <= maximumDuration else { return nil }
        let dx = abs(last.x - start.x), dy = last.y - start.y
        guard abs(dy) > minimumTravel, abs(dy) >= verticalDominance * dx else { return nil }
        return dy < 0 ? .up : .down
    }

    /// The touch was cancelled (the device went away): no gesture.
    public mutating func cancel() {
        start = nil
        last = nil
    }
}
