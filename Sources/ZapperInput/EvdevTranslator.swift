import ZapperCore

/// The translator for one evdev device, chosen by what udev says it is.
public enum EvdevTranslator: Sendable {
    /// A gamepad or joystick: buttons, hat and left stick.
    case gamepad(GamepadTranslator)
    /// A keyboard, IR receiver or CEC device: keys only.
    case keys(KeyTranslator)
    /// A touchscreen: vertical swipes.
    case touch(TouchTranslator)

    public mutating func translate(_ event: InputEventRecord) -> [KeyEvent] {
        switch self {
        case .gamepad(var translator):
            defer { self = .gamepad(translator) }
            return translator.translate(event)
        case .keys(var translator):
            defer { self = .keys(translator) }
            return translator.translate(event).map { [$0] } ?? []
        case .touch(var translator):
            defer { self = .touch(translator) }
            return translator.translate(event)
        }
    }

    /// Releases for every key still held (the device went away).
    public mutating func releaseAll() -> [KeyEvent] {
        switch self {
        case .gamepad(var translator):
            defer { self = .gamepad(translator) }
            return translator.releaseAll()
        case .keys(var translator):
            defer { self = .keys(translator) }
            return translator.releaseAll()
        case .touch:
            return []
        }
    }
}
