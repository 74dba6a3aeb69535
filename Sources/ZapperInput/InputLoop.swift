import Glibc
import ZapperCore

/// The input thread's state and its poll loop. Built on the caller's thread,
/// then used only by the input thread.
final class InputLoop: @unchecked Sendable {
    let seatProblem: String?
    private let wake: Int32
    private let devices: DeviceList
    private let log: @Sendable (String) -> Void
    private let onKey: @Sendable (KeyEvent) -> Void
    private let udev: Udev?
    private let seat: LibinputSeat?
    private let monitor: UdevInputMonitor?
    /// What libevdev reads: gamepads, and everything when libinput is out.
    private let evdevKinds: [(property: String, kind: EvdevDevice.Kind)]
    private var evdev: [EvdevDevice] = []
    /// HDMI-CEC adapters: claimed for the TV remote when free, watched for the log.
    private var cec: [CECAdapter] = []
    private let claimCEC: Bool
    /// Keys that came with the first dispatch, before the thread ran: `onKey` is for the input thread only.
    private var early: [KeyEvent] = []

    init(seat seatName: String, wake: Int32, devices: DeviceList, claimCEC: Bool,
         log: @escaping @Sendable (String) -> Void, onKey: @escaping @Sendable (KeyEvent) -> Void) {
        self.wake = wake
        self.claimCEC = claimCEC
        self.devices = devices
        self.log = log
        self.onKey = onKey
        var udev: Udev?, seat: LibinputSeat?, monitor: UdevInputMonitor?
        var seatProblem: String?
        do {
            udev = try Udev()
        } catch {
            seatProblem = "\(error)"
            log("input: no udev (\(error)); no input devices can be found")
        }
        if let udev {
            do {
                seat = try LibinputSeat(udev: udev, seat: seatName)
            } catch {
                seatProblem = "\(error)"
                log("input: libinput seat \(seatName) unavailable (\(error)); "
                    + "keyboards, remotes and touchscreens are read with libevdev instead")
            }
            do {
                monitor = try UdevInputMonitor(udev)
            } catch {
                log("input: no udev monitor (\(error)); devices plugged in later will not be seen")
            }
        }
        self.udev = udev
        self.seat = seat
        self.monitor = monitor
        self.seatProblem = seatProblem
        evdevKinds = seat != nil ? [("ID_INPUT_JOYSTICK", .gamepad)]
            : [("ID_INPUT_JOYSTICK", .gamepad), ("ID_INPUT_TOUCHSCREEN", .touchscreen), ("ID_INPUT_KEY", .keys)]

        // The devices present now: libinput announces its own at the first dispatch.
        if let seat { handle(seat.dispatch(), keysLater: true) }
        if let udev {
            for (property, _) in evdevKinds {
                do {
                    for device in try udev.eventNodes(withProperty: property) { open(device) }
                } catch {
                    log("input: cannot list \(property) devices: \(error)")
                }
            }
            do {
                for devnode in try udev.devnodes(subsystem: "cec") { openCEC(devnode) }
            } catch {
                log("input: cannot list HDMI-CEC adapters: \(error)")
            }
        }
    }

    /// Polls until the wake fd is written.
    func run() {
        early.forEach(onKey)
        early = []
        while true {
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if let seat { fds.append(pollfd(fd: seat.fd, events: Int16(POLLIN), revents: 0)) }
            if let monitor { fds.append(pollfd(fd: monitor.fd, events: Int16(POLLIN), revents: 0)) }
            let open = evdev
            for device in open { fds.append(pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)) }
            let adapters = cec
            for adapter in adapters { fds.append(pollfd(fd: adapter.fd, events: Int16(POLLPRI), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                log("input: poll failed (\(InputError("poll"))); input stopped")
                return
            }
            if fds[0].revents != 0 { return }
            var index = 1
            if let seat {
                if fds[index].revents != 0 { handle(seat.dispatch()) }
                index += 1
            }
            if let monitor {
                if fds[index].revents != 0 { hotplug(monitor.receive()) }
                index += 1
            }
            for (offset, device) in open.enumerated() where fds[index + offset].revents != 0 {
                let (keys, error) = device.read()
                keys.forEach(onKey)
                if let error, evdev.contains(where: { $0 === device }) {
                    close(device, reason: "\(error)")
                }
            }
            index += open.count
            for (offset, adapter) in adapters.enumerated() where fds[index + offset].revents != 0 {
                let (lines, error) = adapter.stateChanges()
                lines.forEach(log)
                if let error { closeCEC(adapter.devnode, reason: "\(error)") }
            }
        }
    }

    private func handle(_ happenings: [InputHappening], keysLater: Bool = false) {
        for happening in happenings {
            switch happening {
            case .key(let key):
                if keysLater { early.append(key) } else { onKey(key) }
            case .added(let name, let kinds):
                devices.add(name)
                log("input: added \"\(name)\"\(kinds.isEmpty ? "" : " (\(kinds))") via libinput")
            case .removed(let name):
                devices.remove(name)
                log("input: removed \"\(name)\"")
            case .note(let text):
                log(text)
            }
        }
    }

    private func hotplug(_ changes: [UdevInputMonitor.Change]) {
        for change in changes {
            switch change {
            case .added(let device):
                open(device)
            case .removed(let devnode):
                if let device = evdev.first(where: { $0.devnode == devnode }) {
                    device.releaseAll().forEach(onKey)
                    close(device, reason: "unplugged")
                }
            case .cecAdded(let devnode):
                openCEC(devnode)
            case .cecRemoved(let devnode):
                closeCEC(devnode, reason: "unplugged")
            }
        }
    }

    private func open(_ device: UdevInputDevice) {
        guard !evdev.contains(where: { $0.devnode == device.devnode }),
              let kind = evdevKinds.first(where: { device.has($0.property) })?.kind else { return }
        do {
            let opened = try EvdevDevice(devnode: device.devnode, kind: kind)
            evdev.append(opened)
            devices.add(opened.name)
            log("input: added \"\(opened.name)\" (\(kind)) at \(device.devnode) via libevdev")
        } catch {
            log("input: cannot open \(device.devnode): \(error)")
        }
    }

    private func openCEC(_ devnode: String) {
        guard !cec.contains(where: { $0.devnode == devnode }) else { return }
        do {
            cec.append(try CECAdapter(devnode: devnode, claim: claimCEC, log: log))
        } catch {
            log("input: cannot open HDMI-CEC adapter \(devnode): \(error)")
        }
    }

    private func closeCEC(_ devnode: String, reason: String) {
        guard let index = cec.firstIndex(where: { $0.devnode == devnode }) else { return }
        log("input: HDMI-CEC \"\(cec[index].name)\" at \(devnode) gone (\(reason))")
        cec.remove(at: index)
    }

    private func close(_ device: EvdevDevice, reason: String) {
        evdev.removeAll { $0 === device }
        devices.remove(device.name)
        log("input: removed \"\(device.name)\" at \(device.devnode) (\(reason))")
    }
}
