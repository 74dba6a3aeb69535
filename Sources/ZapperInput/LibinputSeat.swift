import CInput
import Glibc
import ZapperCore

/// What the input thread hears from a device source.
enum InputHappening: Equatable {
    case key(KeyEvent)
    case added(name: String, kinds: String)
    case removed(name: String)
    /// Something a person setting the box up should know.
    case note(String)
}

/// libinput on a udev seat: keyboards, IR receivers (rc-core), CEC and
/// touchscreens, with hotplug. Gamepads are left to `EvdevDevice`: libinput
/// ignores pure joysticks, and keys of a gamepad that it does take are
/// dropped here so they are not seen twice.
final class LibinputSeat {
    private let context: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private var touches: [OpaquePointer: Touch] = [:]

    /// The first finger on one touchscreen.
    private struct Touch {
        var recognizer = SwipeRecognizer()
        var slot: Int32?
    }

    init(udev: Udev, seat: String) throws(InputError) {
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, _, _ in path.map(openInputDevice) ?? -EINVAL },
            close_restricted: { fd, _ in close(fd) }))
        guard let context = libinput_udev_create_context(interface, nil, udev.handle) else {
            interface.deallocate()
            throw InputError("libinput_udev_create_context", code: ENOMEM)
        }
        guard libinput_udev_assign_seat(context, seat) == 0 else {
            libinput_unref(context)
            interface.deallocate()
            throw InputError("libinput_udev_assign_seat \(seat)", code: errno == 0 ? EIO : errno)
        }
        self.context = context
    }

    deinit {
        libinput_unref(context)
        interface.deallocate()
    }

    /// The fd to poll.
    var fd: Int32 { libinput_get_fd(context) }

    /// Reads what is waiting and turns it into key events and device changes.
    func dispatch() -> [InputHappening] {
        var happenings: [InputHappening] = []
        let status = libinput_dispatch(context)
        if status < 0 { return happenings }
        while let event = libinput_get_event(context) {
            defer { libinput_event_destroy(event) }
            let device = libinput_event_get_device(event)!
            let name = libinput_device_get_name(device).map { String(cString: $0) } ?? "input device"
            switch libinput_event_get_type(event) {
            case LIBINPUT_EVENT_DEVICE_ADDED where Self.isJoystick(device),
                 LIBINPUT_EVENT_DEVICE_REMOVED where Self.isJoystick(device):
                break       // read (and listed) as a gamepad through libevdev
            case LIBINPUT_EVENT_DEVICE_ADDED:
                happenings.append(.added(name: name, kinds: Self.capabilities(device)))
                if Self.isReceiverWithoutKeys(device) {
                    // libinput reads only the keys a device had when it was opened.
                    happenings.append(.note("input: \"\(name)\" is an IR receiver with no keys mapped yet: "
                        + "a keymap loaded later (ir-keytable) is not seen until zapper restarts; "
                        + "load it through /etc/rc_maps.cfg, which udev applies before zapper opens the receiver"))
                }
            case LIBINPUT_EVENT_DEVICE_REMOVED:
                touches[device] = nil
                happenings.append(.removed(name: name))
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                guard !Self.isJoystick(device), let keyboard = libinput_event_get_keyboard_event(event),
                      let key = EvdevCodes.keyName(libinput_event_keyboard_get_key(keyboard)) else { break }
                let pressed = libinput_event_keyboard_get_key_state(keyboard) == LIBINPUT_KEY_STATE_PRESSED
                happenings.append(.key(KeyEvent(name: key, kind: pressed ? .press : .release, device: name)))
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
                 LIBINPUT_EVENT_TOUCH_CANCEL:
                if let swipe = touch(event, device: device) {
                    happenings.append(.key(KeyEvent(name: swipe.keyName, kind: .press, device: name)))
                    happenings.append(.key(KeyEvent(name: swipe.keyName, kind: .release, device: name)))
                }
            default:
                break
            }
        }
        return happenings
    }

    /// Follows the first finger down on a touchscreen; the swipe it made when it lifts.
    private func touch(_ event: OpaquePointer, device: OpaquePointer) -> SwipeRecognizer.Direction? {
        guard let touchEvent = libinput_event_get_touch_event(event) else { return nil }
        var state = touches[device] ?? Touch()
        defer { touches[device] = state }
        let slot = libinput_event_touch_get_slot(touchEvent)
        let time = Double(libinput_event_touch_get_time_usec(touchEvent)) / 1e6
        let scale: UInt32 = 100_000
        func position() -> (x: Double, y: Double) {
            (libinput_event_touch_get_x_transformed(touchEvent, scale) / Double(scale),
             libinput_event_touch_get_y_transformed(touchEvent, scale) / Double(scale))
        }
        switch libinput_event_get_type(event) {
        case LIBINPUT_EVENT_TOUCH_DOWN where state.slot == nil:
            state.slot = slot
            let (x, y) = position()
            state.recognizer.down(x: x, y: y, time: time)
        case LIBINPUT_EVENT_TOUCH_MOTION where state.slot == slot:
            let (x, y) = position()
            state.recognizer.move(x: x, y: y)
        case LIBINPUT_EVENT_TOUCH_UP where state.slot == slot:
            state.slot = nil
            return state.recognizer.up(time: time)
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            state.slot = nil
            state.recognizer.cancel()
        default:
            break
        }
        return nil
    }

    private static func capabilities(_ device: OpaquePointer) -> String {
        var kinds: [String] = []
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { kinds.append("keys") }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { kinds.append("touch") }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { kinds.append("pointer") }
        return kinds.joined(separator: ", ")
    }

    /// An rc-core receiver whose keymap is empty (the kernel's rc-empty table, no ir-keytable yet).
    private static func isReceiverWithoutKeys(_ device: OpaquePointer) -> Bool {
        guard let udevDevice = libinput_device_get_udev_device(device) else { return false }
        defer { udev_device_unref(udevDevice) }
        guard udev_device_get_parent_with_subsystem_devtype(udevDevice, "rc", nil) != nil else { return false }
        // Keys only: rc-core gives every receiver mouse buttons (BTN_MISC...) for mouse-like remotes.
        let keys = Array(UInt32(KEY_ESC)..<UInt32(BTN_MISC)) + Array(UInt32(KEY_OK)..<UInt32(BTN_TRIGGER_HAPPY))
        return !keys.contains { libinput_device_keyboard_has_key(device, $0) == 1 }
    }

    private static func isJoystick(_ device: OpaquePointer) -> Bool {
        guard let udevDevice = libinput_device_get_udev_device(device) else { return false }
        defer { udev_device_unref(udevDevice) }
        return udev_device_get_property_value(udevDevice, "ID_INPUT_JOYSTICK").map { String(cString: $0) } == "1"
    }
}
