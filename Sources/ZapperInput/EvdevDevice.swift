import CInput
import Glibc
import ZapperCore

/// One evdev node read with libevdev, with the translator for its kind.
final class EvdevDevice {
    let devnode: String
    let name: String
    let fd: Int32
    private let evdev: OpaquePointer
    private var translator: EvdevTranslator

    enum Kind { case gamepad, keys, touchscreen }

    init(devnode: String, kind: Kind) throws(InputError) {
        let fd = openInputDevice(devnode)
        guard fd >= 0 else { throw InputError("open \(devnode)", code: fd) }
        var evdev: OpaquePointer?
        let status = libevdev_new_from_fd(fd, &evdev)
        guard status >= 0, let evdev else {
            close(fd)
            throw InputError("libevdev_new_from_fd \(devnode)", code: status)
        }
        self.devnode = devnode
        self.fd = fd
        self.evdev = evdev
        let name = libevdev_get_name(evdev).map { String(cString: $0) } ?? devnode
        self.name = name
        var axes: [UInt16: AxisInfo] = [:]
        for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
            if let info = libevdev_get_abs_info(evdev, UInt32(code)) {
                axes[UInt16(code)] = AxisInfo(minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                                              flat: info.pointee.flat)
            }
        }
        switch kind {
        case .gamepad: translator = .gamepad(GamepadTranslator(device: name, axes: axes))
        case .keys: translator = .keys(KeyTranslator(device: name))
        case .touchscreen: translator = .touch(TouchTranslator(device: name, axes: axes))
        }
    }

    deinit {
        libevdev_free(evdev)
        close(fd)
    }

    /// Reads what is waiting. After a kernel buffer overrun (SYN_DROPPED)
    /// libevdev replays the changes that were lost, and those are translated
    /// like any others. An error (ENODEV: unplugged) ends the device, and
    /// releases for the keys it still held come with it.
    func read() -> (keys: [KeyEvent], error: InputError?) {
        var keys: [KeyEvent] = []
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(evdev, flags, &event)
            if status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                keys += translator.translate(InputEventRecord(event))
                // In sync mode until libevdev says the replay is over (-EAGAIN).
                flags = status == LIBEVDEV_READ_STATUS_SYNC.rawValue ? LIBEVDEV_READ_FLAG_SYNC.rawValue : flags
            } else if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return (keys, nil)
            } else {
                return (keys + translator.releaseAll(), InputError("read \(devnode)", code: status))
            }
        }
    }

    /// Releases for what is still held (the device is going away).
    func releaseAll() -> [KeyEvent] { translator.releaseAll() }
}
