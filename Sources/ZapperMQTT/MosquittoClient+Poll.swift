import CMosquitto
import Glibc

/// One turn of the client's network, as `mosquitto_loop` takes it but waiting with poll(2):
/// libmosquitto's own loop waits with select(2) and refuses (`MOSQ_ERR_INVAL`, "Invalid
/// function arguments provided") a socket numbered `FD_SETSIZE` (1024) or more, which is what
/// a process with many files and connections open is given, so the link never connected there.
/// `wake` (a pipe) ends the wait when another thread queues a packet: libmosquitto's own
/// wake-up pair is read only by its loop.
extension MosquittoClient {
    /// A pipe for `wake`, both ends non-blocking; nil when the system has none to give (the loop
    /// then waits its timeout).
    static func makeWake() -> Wake? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return Wake(read: ends[0], write: ends[1])
    }

    struct Wake: Sendable {
        let read: Int32
        let write: Int32
    }

    /// Ends the network thread's wait: a packet was queued (a full pipe already says so).
    func wakeLoop() {
        guard let wake else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
    }

    /// Reads and writes what the socket is ready for, waiting at most `milliseconds`, then keeps the
    /// connection alive; the code of the first step that failed (the connection is closed then).
    func turn(_ handle: OpaquePointer, milliseconds: Int32) -> Int32 {
        let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        let wantsWrite = mosquitto_want_write(handle)
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                           pollfd(fd: wake?.read ?? -1, events: Int16(POLLIN), revents: 0)]
        if poll(&descriptors, nfds_t(descriptors.count), milliseconds) < 0 {
            return errno == EINTR ? success : Int32(MOSQ_ERR_ERRNO.rawValue)
        }
        if let wake, descriptors[1].revents & Int16(POLLIN) != 0 {
            var bytes = [UInt8](repeating: 0, count: 64)
            while Glibc.read(wake.read, &bytes, bytes.count) > 0 {}
        }
        let events = descriptors[0].revents
        if events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
            let code = mosquitto_loop_read(handle, 1)
            if code != success || mosquitto_socket(handle) < 0 { return code }
        }
        // Ready to write, or a packet queued meanwhile (a reply from a message's callback, another thread's publish).
        if events & Int16(POLLOUT) != 0 || mosquitto_want_write(handle) {
            let code = mosquitto_loop_write(handle, 1)
            if code != success || mosquitto_socket(handle) < 0 { return code }
        }
        return mosquitto_loop_misc(handle)
    }
}
