import Glibc

/// A failed system or input-library call, with the C library's message.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    /// The errno value (libevdev and libinput return it negated; stored positive).
    public let code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = abs(code)
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Opens an input device node the way libinput and libevdev want it:
/// read-write (some devices need it for LEDs or grabs), non-blocking,
/// close-on-exec; read-only when write access is refused.
/// Returns the fd, or a negative errno.
func openInputDevice(_ path: UnsafePointer<CChar>) -> Int32 {
    var fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    if fd < 0, errno == EACCES || errno == EPERM || errno == EROFS {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    }
    return fd < 0 ? -errno : fd
}
