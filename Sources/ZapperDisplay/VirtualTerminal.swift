import CDRM
import Glibc

/// The active virtual terminal, put into graphics mode so that no console text
/// (kernel messages, a getty's prompt, the blinking cursor) is drawn over the
/// picture, with its keyboard off (keys reach Zapper through libinput; the
/// console would otherwise echo them into its text, to be seen whenever the
/// console shows again: after a crash, before the restart), and back into its
/// previous modes on exit.
///
/// VT switching (Ctrl+Alt+Fn): after `enableSwitchSignals`, the kernel asks by
/// sending `releaseSignal` before switching away and `acquireSignal` after
/// switching back; the event loop handles those signals by calling
/// `KMSDisplay.releaseForVTSwitch()` / `acquireAfterVTSwitch()`.
public final class VirtualTerminal {
    public let path: String
    private let fd: Int32
    private let previousMode: Int32
    private var processSwitching = false
    private var restored = false

    /// Opens the active VT (through /dev/tty0) and sets KD_GRAPHICS; nil, with the
    /// reason logged, where that fails (no VT, not allowed): harmless, the picture
    /// still shows, console text might appear over it.
    public static func enterGraphics(log: (String) -> Void) -> VirtualTerminal? {
        var path = "/dev/tty"
        let console = open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY)
        if console >= 0 {
            let active = zapper_vt_active(console)
            close(console)
            if active > 0 { path = "/dev/tty\(active)" }
        }
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            log("VT: cannot open \(path) (\(String(cString: strerror(errno)))); console text may show over the picture")
            return nil
        }
        var mode: Int32 = 0
        guard zapper_kd_get_mode(fd, &mode) == 0 else {
            log("VT: \(path) is not a virtual terminal (\(String(cString: strerror(errno)))); console text may show over the picture")
            close(fd)
            return nil
        }
        guard zapper_kd_set_mode(fd, Int32(KD_GRAPHICS)) == 0 else {
            log("VT: KDSETMODE KD_GRAPHICS on \(path) failed (\(String(cString: strerror(errno)))); console text may show over the picture")
            close(fd)
            return nil
        }
        var keyboardMode: Int32 = 0
        if zapper_kd_get_keyboard_mode(fd, &keyboardMode) != 0 || zapper_kd_set_keyboard_mode(fd, Int32(K_OFF)) != 0 {
            log("VT: KDSKBMODE K_OFF on \(path) failed (\(String(cString: strerror(errno)))); keys may be echoed on the console")
            keyboardMode = -1
        }
        return VirtualTerminal(path: path, fd: fd, previousMode: mode, previousKeyboardMode: keyboardMode)
    }

    private let previousKeyboardMode: Int32

    private init(path: String, fd: Int32, previousMode: Int32, previousKeyboardMode: Int32) {
        self.path = path
        self.fd = fd
        self.previousMode = previousMode
        self.previousKeyboardMode = previousKeyboardMode
    }

    deinit {
        restore()
        close(fd)
    }

    /// Asks the kernel to signal VT switches instead of doing them behind our back.
    public func enableSwitchSignals(release releaseSignal: Int32 = SIGUSR1, acquire acquireSignal: Int32 = SIGUSR2) throws {
        guard zapper_vt_set_process_mode(fd, releaseSignal, acquireSignal) == 0 else {
            throw Errno(operation: "\(path): VT_SETMODE VT_PROCESS")
        }
        processSwitching = true
    }

    /// Lets a requested switch away happen (after the display was handed back).
    public func allowRelease() throws {
        guard zapper_vt_release_display(fd) == 0 else { throw Errno(operation: "\(path): VT_RELDISP") }
    }

    /// Acknowledges the switch back to us.
    public func acknowledgeAcquire() throws {
        guard zapper_vt_acknowledge_acquire(fd) == 0 else { throw Errno(operation: "\(path): VT_RELDISP VT_ACKACQ") }
    }

    /// Back to the previous keyboard/display mode (text) and automatic switching. Idempotent.
    public func restore() {
        guard !restored else { return }
        restored = true
        if processSwitching { _ = zapper_vt_set_auto_mode(fd) }
        _ = zapper_kd_set_mode(fd, previousMode == Int32(KD_GRAPHICS) ? Int32(KD_TEXT) : previousMode)
        if previousKeyboardMode >= 0 {
            _ = zapper_kd_set_keyboard_mode(fd, previousKeyboardMode == Int32(K_OFF) ? Int32(K_UNICODE) : previousKeyboardMode)
        }
    }
}
