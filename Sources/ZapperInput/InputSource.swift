import CInput
import Dispatch
import Foundation
import Glibc
import Synchronization
import ZapperCore

/// Every input device of the box, read on a dedicated thread: keyboards, IR
/// remotes, CEC and touchscreens through libinput's udev seat; gamepads and
/// joysticks (which libinput ignores) through libevdev, with udev hotplug; and
/// the HDMI-CEC adapters, claimed so the TV sends its remote's keys at all.
/// Each key press and release reaches `onKey` on the input thread; the
/// caller queues it for its own loop.
///
/// No devices at all is normal (hotplug may bring some). If libinput's seat
/// cannot be set up, that is logged and libevdev reads keyboards, remotes
/// and touchscreens too, so gamepads and everything else keep working.
public final class InputSource: Sendable {
    /// Why libinput's seat could not be used, or nil when it is in use (once the input thread
    /// has opened the devices: this waits for that).
    public var seatProblem: String? {
        opening.done.wait()
        opening.done.signal()
        return opening.problem.withLock { $0 }
    }
    private let opening = Opening()
    private let wake: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)
    private let devices: DeviceList

    /// Writes `line` to standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Starts the input thread, which opens the seat, the gamepads and the HDMI-CEC adapters
    /// present now, then reads them. The opening is not waited for: in QEMU it took 0.87 s of a
    /// 4.07 s start (measured on 2026-11-29), which the first tune need not wait. `claimCEC`:
    /// claim a playback address on each free CEC adapter so the TV sends its remote's keys
    /// (`CECClaim`). Throws only when the thread's wake-up fd cannot be made.
    public init(seat: String = "seat0", claimCEC: Bool = true,
                log: @escaping @Sendable (String) -> Void = InputSource.standardErrorLog,
                onKey: @escaping @Sendable (KeyEvent) -> Void) throws(InputError) {
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else { throw InputError("eventfd") }
        self.wake = wake
        let devices = DeviceList()
        self.devices = devices
        let thread = Thread { [finished, opening] in
            let loop = InputLoop(seat: seat, wake: wake, devices: devices, claimCEC: claimCEC, log: log, onKey: onKey)
            opening.problem.withLock { $0 = loop.seatProblem }
            if devices.names.isEmpty { log("input: no input devices yet; waiting for hotplug") }
            opening.done.signal()
            loop.run()
            finished.signal()
        }
        thread.name = "zapper-input"
        thread.start()
    }

    deinit {
        stop()
        close(wake)
    }

    /// The devices being read now, by name.
    public var deviceNames: [String] { devices.names }

    /// Wakes the input thread, lets it close every device and waits for it to end.
    /// Must not be called from `onKey` (that runs on the input thread).
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
        finished.wait()
    }
}

/// What the input thread found when it opened the devices, once it has.
private final class Opening: Sendable {
    let problem = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// The names of the open devices, shared between the input thread and callers.
final class DeviceList: Sendable {
    private let state = Mutex<[String]>([])

    var names: [String] { state.withLock { $0 } }

    func add(_ name: String) { state.withLock { $0.append(name) } }

    func remove(_ name: String) {
        state.withLock { names in
            if let index = names.firstIndex(of: name) { names.remove(at: index) }
        }
    }
}
