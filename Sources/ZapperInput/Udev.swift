import CInput

/// A libudev context.
final class Udev {
    let handle: OpaquePointer

    init() throws(InputError) {
        guard let handle = udev_new() else { throw InputError("udev_new") }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// The evdev nodes (`/dev/input/event*`) of the input devices whose udev
    /// property `property` is "1" (e.g. `ID_INPUT_JOYSTICK`).
    func eventNodes(withProperty property: String) throws(InputError) -> [UdevInputDevice] {
        var found: [UdevInputDevice] = []
        try scan(subsystem: "input", property: property) { device in
            if let input = UdevInputDevice(device) { found.append(input) }
        }
        return found.sorted { $0.devnode < $1.devnode }
    }

    /// The device nodes of a subsystem's devices (e.g. "cec": `/dev/cec0`…), sorted.
    func devnodes(subsystem: String) throws(InputError) -> [String] {
        var found: [String] = []
        try scan(subsystem: subsystem) { device in
            if let node = udev_device_get_devnode(device) { found.append(String(cString: node)) }
        }
        return found.sorted()
    }

    /// Calls `body` with each device of `subsystem` (whose `property` is "1", when given).
    private func scan(subsystem: String, property: String? = nil, _ body: (OpaquePointer) -> Void) throws(InputError) {
        guard let enumerate = udev_enumerate_new(handle) else { throw InputError("udev_enumerate_new") }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        if let property { udev_enumerate_add_match_property(enumerate, property, "1") }
        let status = udev_enumerate_scan_devices(enumerate)
        guard status >= 0 else { throw InputError("udev_enumerate_scan_devices", code: status) }
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
               let device = udev_device_new_from_syspath(handle, syspath) {
                body(device)
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
    }
}

/// What udev says about one evdev node.
struct UdevInputDevice {
    let devnode: String
    let properties: [String: String]

    /// Nil unless the device has an evdev node.
    init?(_ device: OpaquePointer) {
        guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
              node.hasPrefix("/dev/input/event") else { return nil }
        devnode = node
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        self.properties = properties
    }

    func has(_ property: String) -> Bool { properties[property] == "1" }
}

/// Input and HDMI-CEC hotplug from udev (after its rules ran, so the properties are set).
final class UdevInputMonitor {
    enum Change {
        case added(UdevInputDevice)
        case removed(devnode: String)
        case cecAdded(devnode: String)
        case cecRemoved(devnode: String)
    }

    private let udev: Udev
    private let monitor: OpaquePointer

    init(_ udev: Udev) throws(InputError) {
        guard let monitor = udev_monitor_new_from_netlink(udev.handle, "udev") else {
            throw InputError("udev_monitor_new_from_netlink")
        }
        self.udev = udev
        self.monitor = monitor
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "cec", nil)
        let status = udev_monitor_enable_receiving(monitor)
        guard status >= 0 else {
            udev_monitor_unref(monitor)
            throw InputError("udev_monitor_enable_receiving", code: status)
        }
    }

    deinit { udev_monitor_unref(monitor) }

    /// The socket to poll (non-blocking).
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    /// The changes waiting on the socket: evdev nodes and CEC adapters.
    func receive() -> [Change] {
        var changes: [Change] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) }
            if udev_device_get_subsystem(device).map({ String(cString: $0) }) == "cec" {
                guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }) else { continue }
                if action == "add" { changes.append(.cecAdded(devnode: node)) }
                if action == "remove" { changes.append(.cecRemoved(devnode: node)) }
                continue
            }
            guard let input = UdevInputDevice(device) else { continue }
            switch action {
            case "add": changes.append(.added(input))
            case "remove": changes.append(.removed(devnode: input.devnode))
            default: break
            }
        }
        return changes
    }
}
