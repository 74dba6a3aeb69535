import Foundation

/// A client of mpv's JSON IPC socket (`--input-ipc-server`): notes when each
/// event arrives and answers property requests. Reads on its own thread.
final class MPVControl: @unchecked Sendable {
    private let socket: Int32
    private let lock = NSLock()
    private var events: [(name: String, time: Double)] = []
    private var replies: [Int: Any] = [:]
    private var nextRequest = 1

    /// Connects to the socket at `path`, waiting up to `seconds` for mpv to create it.
    init(path: String, seconds: Double) throws {
        let deadline = Monotonic.now + seconds
        while true {
            let candidate = Self.connect(path)
            if candidate >= 0 { socket = candidate; break }
            guard Monotonic.now < deadline else { throw BenchError("mpv: cannot connect to \(path): \(String(cString: strerror(errno)))") }
            Thread.sleep(forTimeInterval: 0.002)
        }
        let thread = Thread { [self] in readLoop() }
        thread.name = "zapper-bench-mpv-ipc"
        thread.start()
    }

    deinit { close(socket) }

    /// When the named event first came (monotonic seconds), if it did.
    func firstEvent(_ name: String) -> Double? {
        lock.withLock { events.first { $0.name == name }?.time }
    }

    /// A property's value (`get_property`), or nil on error or after `seconds`.
    func property(_ name: String, seconds: Double = 2) -> Any? {
        let id = lock.withLock { () -> Int in nextRequest += 1; return nextRequest }
        send(["command": ["get_property", name], "request_id": id])
        let deadline = Monotonic.now + seconds
        while Monotonic.now < deadline {
            if let reply = lock.withLock({ replies.removeValue(forKey: id) }) { return reply is NSNull ? nil : reply }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    func quit() { send(["command": ["quit"]]) }

    /// Sends a command (e.g. `playlist-next`); returns the monotonic time it was sent.
    @discardableResult
    func command(_ words: [String]) -> Double {
        let now = Monotonic.now
        send(["command": words])
        return now
    }

    /// When the named event first came after `time`, waiting up to `seconds` for it.
    func event(_ name: String, after time: Double, seconds: Double) -> Double? {
        let deadline = Monotonic.now + seconds
        while Monotonic.now < deadline {
            if let seen = lock.withLock({ events.first { $0.name == name && $0.time > time }?.time }) { return seen }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return nil
    }

    private func send(_ message: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: message) else { return }
        data.append(0x0A)
        data.withUnsafeBytes { _ = write(socket, $0.baseAddress, $0.count) }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pending = Data()
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { return }
            let now = Monotonic.now
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[pending.index(after: newline)...])
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                lock.withLock {
                    if let event = object["event"] as? String {
                        events.append((event, now))
                    } else if let id = object["request_id"] as? Int, id != 0 {
                        replies[id] = (object["error"] as? String == "success") ? (object["data"] ?? NSNull()) : NSNull()
                    }
                }
            }
        }
    }

    private static func connect(_ path: String) -> Int32 {
        let descriptor = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(descriptor); return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 { close(descriptor); return -1 }
        return descriptor
    }
}
