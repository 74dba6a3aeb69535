import CInput

/// One Linux `input_event` as Swift values: what the translators read.
public struct InputEventRecord: Sendable, Equatable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// The kernel's timestamp, in seconds.
    public var time: Double

    public init(type: UInt16, code: UInt16, value: Int32, time: Double = 0) {
        self.type = type
        self.code = code
        self.value = value
        self.time = time
    }

    init(_ event: input_event) {
        self.init(type: event.type, code: event.code, value: event.value,
                  time: Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1e6)
    }

    /// An event given by the kernel's names: `("EV_KEY", "KEY_CHANNELUP", 1)`.
    /// Nil if libevdev does not know the names.
    public init?(_ typeName: String, _ codeName: String, _ value: Int32, time: Double = 0) {
        let type = libevdev_event_type_from_name(typeName)
        guard type >= 0 else { return nil }
        let code = libevdev_event_code_from_name(UInt32(type), codeName)
        guard code >= 0 else { return nil }
        self.init(type: UInt16(type), code: UInt16(code), value: value, time: time)
    }
}

/// An absolute axis's range, from the device's `input_absinfo`.
public struct AxisInfo: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32
    /// Values within `flat` of the centre are noise (the hardware's dead zone).
    public var flat: Int32

    public init(minimum: Int32, maximum: Int32, flat: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.flat = flat
    }

    /// `value` as a fraction of the range, 0 at the minimum and 1 at the maximum.
    func fraction(_ value: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        return (Double(value) - Double(minimum)) / (Double(maximum) - Double(minimum))
    }

    /// `value` relative to the centre, -1 at the minimum and +1 at the maximum.
    func centred(_ value: Int32) -> Double { fraction(value) * 2 - 1 }

    /// The hardware dead zone as a fraction of the half range.
    var flatFraction: Double {
        guard maximum > minimum else { return 0 }
        return Double(flat) / ((Double(maximum) - Double(minimum)) / 2)
    }
}

/// The event types and codes the translators look at (from linux/input-event-codes.h).
enum Code {
    static let syn = UInt16(EV_SYN), key = UInt16(EV_KEY), abs = UInt16(EV_ABS)
    static let synReport = UInt16(SYN_REPORT), synDropped = UInt16(SYN_DROPPED)
    static let absX = UInt16(ABS_X), absY = UInt16(ABS_Y)
    static let hat0X = UInt16(ABS_HAT0X), hat0Y = UInt16(ABS_HAT0Y)
    static let mtSlot = UInt16(ABS_MT_SLOT), mtX = UInt16(ABS_MT_POSITION_X), mtY = UInt16(ABS_MT_POSITION_Y)
    static let mtTrackingID = UInt16(ABS_MT_TRACKING_ID)
    static let btnTouch = UInt16(BTN_TOUCH)
    static let btnToolFinger = UInt16(BTN_TOOL_FINGER), btnToolQuintTap = UInt16(BTN_TOOL_QUINTTAP)
    static let dpadUp = "BTN_DPAD_UP", dpadDown = "BTN_DPAD_DOWN", dpadLeft = "BTN_DPAD_LEFT", dpadRight = "BTN_DPAD_RIGHT"
}
