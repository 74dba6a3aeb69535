import ZapperCore

/// A gamepad's events -> key presses and releases. Buttons keep their kernel
/// names (`BTN_SOUTH`, `BTN_TL`); the D-pad, whether it reports buttons or a
/// hat (`ABS_HAT0X/Y`), and the left stick (`ABS_X/Y`) all become
/// `BTN_DPAD_UP/DOWN/LEFT/RIGHT`. The stick presses when pushed past half
/// its travel and releases only when back inside 30% (or the hardware's own
/// dead zone, if wider), so one push is one press, without chatter.
public struct GamepadTranslator: Sendable {
    enum Position: Sendable { case negative, centre, positive }

    private var keys: KeyTranslator
    private let stickX: AxisInfo?, stickY: AxisInfo?
    private var hat = (x: Position.centre, y: Position.centre)
    private var stick = (x: Position.centre, y: Position.centre)

    /// `axes` holds the device's absolute axis ranges by code (from its absinfo).
    public init(device: String, axes: [UInt16: AxisInfo]) {
        keys = KeyTranslator(device: device)
        stickX = axes[Code.absX]
        stickY = axes[Code.absY]
    }

    public var device: String { keys.device }

    public mutating func translate(_ event: InputEventRecord) -> [KeyEvent] {
        if event.type == Code.key { return keys.translate(event).map { [$0] } ?? [] }
        guard event.type == Code.abs else { return [] }
        switch event.code {
        case Code.hat0X:
            let next = Self.sign(event.value)
            defer { hat.x = next }
            return move(from: hat.x, to: next, negative: Code.dpadLeft, positive: Code.dpadRight)
        case Code.hat0Y:
            let next = Self.sign(event.value)
            defer { hat.y = next }
            return move(from: hat.y, to: next, negative: Code.dpadUp, positive: Code.dpadDown)
        case Code.absX:
            guard let info = stickX else { return [] }
            let next = Self.stickPosition(stick.x, info.centred(event.value), info: info)
            defer { stick.x = next }
            return move(from: stick.x, to: next, negative: Code.dpadLeft, positive: Code.dpadRight)
        case Code.absY:
            guard let info = stickY else { return [] }
            let next = Self.stickPosition(stick.y, info.centred(event.value), info: info)
            defer { stick.y = next }
            return move(from: stick.y, to: next, negative: Code.dpadUp, positive: Code.dpadDown)
        default:
            return []
        }
    }

    /// Releases for everything still held (the device went away).
    public mutating func releaseAll() -> [KeyEvent] {
        hat = (.centre, .centre)
        stick = (.centre, .centre)
        return keys.releaseAll()
    }

    private mutating func move(from position: Position, to next: Position,
                               negative: String, positive: String) -> [KeyEvent] {
        guard next != position else { return [] }
        var events: [KeyEvent] = []
        if let name = Self.name(position, negative, positive), let code = EvdevCodes.keyCode(named: name),
           let event = keys.key(UInt16(code), down: false, up: true) {
            events.append(event)
        }
        if let name = Self.name(next, negative, positive), let code = EvdevCodes.keyCode(named: name),
           let event = keys.key(UInt16(code), down: true, up: false) {
            events.append(event)
        }
        return events
    }

    private static func name(_ position: Position, _ negative: String, _ positive: String) -> String? {
        switch position {
        case .negative: negative
        case .centre: nil
        case .positive: positive
        }
    }

    private static func sign(_ value: Int32) -> Position {
        value < 0 ? .negative : value > 0 ? .positive : .centre
    }

    /// Where the stick counts as being, given where it counted before: a
    /// wide gap between the press and release thresholds (hysteresis).
    static func stickPosition(_ current: Position, _ offset: Double, info: AxisInfo) -> Position {
        let release = max(0.3, info.flatFraction)
        let press = min(max(0.5, release + 0.2), 0.95)
        if offset >= press { return .positive }
        if offset <= -press { return .negative }
        switch current {
        case .positive: return offset < release ? .centre : .positive
        case .negative: return offset > -release ? .centre : .negative
        case .centre: return .centre
        }
    }
}
