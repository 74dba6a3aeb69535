import CDRM
import Glibc
import ZapperCore

/// Notices display hotplug: the kernel's "change" uevents of subsystem "drm" with
/// HOTPLUG=1, read from a netlink socket (the kernel's own group, so it works
/// without udevd, as in the appliance's minimal init). Non-blocking: the display
/// drains it from the event loop, one cheap recv per frame.
public final class HotplugMonitor {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 8192)

    /// Opens the socket; throws where netlink uevents are not allowed (some containers).
    public init() throws {
        let fd = zapper_uevent_socket()
        guard fd >= 0 else { throw Errno(operation: "open a kernel uevent socket") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// For a poll set: readable when uevents are queued.
    public var fileDescriptor: Int32 { fd }

    /// Reads every queued uevent; true when one of them was a display hotplug.
    /// A full socket buffer (ENOBUFS: events were lost) counts as a hotplug too.
    public func drain() -> Bool {
        var hotplug = false
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ENOBUFS { hotplug = true; continue }
                return hotplug  // EAGAIN: drained
            }
            if let event = UEvent.parse(buffer[0..<count]), event.isDisplayHotplug { hotplug = true }
        }
    }
}
