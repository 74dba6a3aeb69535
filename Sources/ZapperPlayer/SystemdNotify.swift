import Foundation
import Glibc
import ZapperCore

/// systemd's notify protocol (sd_notify(3)) without libsystemd: one datagram per
/// message to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or an abstract
/// name written with a leading `@`). Without `$NOTIFY_SOCKET` (not started by
/// systemd with `Type=notify`) every call does nothing.
///
/// The player calls `tick` once per loop turn:
/// - the first tick says `READY=1`: the display is open and the loop runs, so the
///   screen already shows the card or the picture. Not the first video frame: a
///   lineup whose origin is down must still count as started (the card says why)
///   rather than make systemd time out and restart the box forever;
/// - `WATCHDOG=1` every half of `$WATCHDOG_USEC` (when `$WATCHDOG_PID`, if set, is
///   this process): a loop that stops turning stops the heartbeats, and systemd
///   kills and restarts the service;
/// - `STATUS=Playing channel N` / `STATUS=Tuning channel N` when that changes
///   (`systemctl status zapper` shows it).
///
/// `stopping()` says `STOPPING=1`; `reloading()` says `RELOADING=1`. Sends never block (`MSG_DONTWAIT`); a failed send
/// is dropped, as sd_notify's callers do.
public final class SystemdNotify {
    private let address: sockaddr_un?
    private let addressLength: socklen_t
    private let descriptor: Int32
    /// Half the watchdog period, in milliseconds; nil without a watchdog.
    public let heartbeatMilliseconds: Int?
    private var ready = false
    private var lastHeartbeat = 0
    private var lastStatus: (playing: Int?, tuning: Int)?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if pidMatches, let usec = environment["WATCHDOG_USEC"].flatMap(Int.init), usec > 0 {
            heartbeatMilliseconds = max(1, usec / 2_000)
        } else {
            heartbeatMilliseconds = nil
        }
        guard let name = environment["NOTIFY_SOCKET"], let (address, length) = Self.address(name) else {
            self.address = nil
            addressLength = 0
            descriptor = -1
            return
        }
        self.address = address
        addressLength = length
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether systemd listens (`$NOTIFY_SOCKET` named a usable socket address).
    public var isEnabled: Bool { descriptor >= 0 }

    /// One loop turn at `now` (milliseconds, any monotonic origin): READY on the
    /// first, heartbeats when due, the status when the channel changed.
    public func tick(now: Int, view: TunerView) {
        let playing = view.tuned, tuning = view.target
        guard isEnabled else { return }
        var lines: [String] = []
        if !ready {
            ready = true
            lines.append("READY=1")
        }
        if let heartbeat = heartbeatMilliseconds, lines.count > 0 || now - lastHeartbeat >= heartbeat {
            lastHeartbeat = now
            lines.append("WATCHDOG=1")
        }
        if lastStatus == nil || lastStatus! != (playing, tuning) {
            lastStatus = (playing, tuning)
            lines.append(playing == tuning ? "STATUS=Playing channel \(tuning)" : "STATUS=Tuning channel \(tuning)")
        }
        if !lines.isEmpty { send(lines.joined(separator: "\n")) }
    }

    /// Waits `seconds` before the loop starts (the crash-loop breaker's delay),
    /// saying why in the status and keeping the watchdog fed meanwhile.
    public func wait(seconds: Int, status: String) {
        if isEnabled { send("STATUS=\(status)") }
        for _ in 0..<max(0, seconds) {
            if isEnabled, heartbeatMilliseconds != nil { send("WATCHDOG=1") }
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// The service is stopping (the loop ended).
    public func stopping() {
        if isEnabled { send("STOPPING=1") }
    }

    /// The service reloads: the loop ended and the process starts itself anew (execve: the same
    /// PID), whose first tick says READY=1 again. Not STOPPING=1, which would make systemd stop it.
    public func reloading() {
        guard isEnabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send("RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000)\nSTATUS=Reloading")
    }

    /// Sends one message; false when it could not be sent.
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard var address else { return false }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), socketAddress, addressLength)
            }
        }
        return sent == bytes.count
    }

    /// The socket address for `$NOTIFY_SOCKET`: an absolute path, or `@name` for an
    /// abstract name (its length counts exactly, no terminating NUL). Nil when empty,
    /// relative or too long.
    static func address(_ name: String) -> (sockaddr_un, socklen_t)? {
        var path = Array(name.utf8)
        guard let first = path.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        let abstract = first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity || (abstract && path.count <= capacity) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        // A path is NUL-terminated (the struct is zeroed); an abstract name is not.
        let length = pathOffset + path.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }
}
