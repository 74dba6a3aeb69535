import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on 127.0.0.1 in front of the origin that holds every chunk `oneWay` seconds in
/// each direction (and a connection's first request a round trip more: the handshake a real
/// link would cost), for kernels without netem. The rate comes from the link's tbf behind it.
/// Each direction has a reader and a writer thread and at most `queueBytes` in flight.
final class DelayRelay: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let target: (address: String, port: Int)
    private let oneWay: Double
    static let queueBytes = 8 << 20

    init(target address: String, port targetPort: Int, roundTripMilliseconds rtt: Int) throws {
        target = (address, targetPort)
        oneWay = Double(rtt) / 2000
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw BenchError("relay: socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var local = Self.address("127.0.0.1", 0)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, Glibc.listen(listener, 128) == 0 else { throw BenchError("relay: bind/listen: \(String(cString: strerror(errno)))") }
        var named = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &named) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = Int(UInt16(bigEndian: named.sin_port))
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.name = "relay-accept"
        thread.start()
    }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    static func address(_ text: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread.detachNewThread { [self] in connect(client) }
        }
    }

    private func connect(_ client: Int32) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var remote = Self.address(target.address, target.port)
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard upstream >= 0, connected == 0 else {
            close(client)
            if upstream >= 0 { close(upstream) }
            return
        }
        var noDelay: Int32 = 1
        for descriptor in [client, upstream] { setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size)) }
        let open = Countdown(2) {
            close(client)
            close(upstream)
        }
        pump(from: client, to: upstream, firstExtra: 2 * oneWay, done: open)
        pump(from: upstream, to: client, firstExtra: 0, done: open)
    }

    /// Reads `source` into a queue of chunks each due `oneWay` later; a writer sends them when due.
    private func pump(from source: Int32, to sink: Int32, firstExtra: Double, done: Countdown) {
        let queue = DelayQueue(limit: Self.queueBytes)
        let delay = oneWay
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            var extra = firstExtra
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                queue.put(Array(buffer[0..<count]), due: Monotonic.now + delay + extra)
                extra = 0
            }
            queue.finish()
        }
        Thread.detachNewThread {
            while let (chunk, due) = queue.take() {
                let wait = due - Monotonic.now
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                var sent = 0
                while sent < chunk.count {
                    let wrote = chunk[sent...].withUnsafeBytes { send(sink, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard wrote > 0 else { break }
                    sent += wrote
                }
                guard sent == chunk.count else { break }
            }
            shutdown(sink, Int32(SHUT_WR))
            shutdown(source, Int32(SHUT_RD))
            done.tick()
        }
    }
}

/// Chunks in order with when each may go on; the reader waits while `limit` bytes are held.
private final class DelayQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [([UInt8], Double)] = []
    private var bytes = 0
    private var finished = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func put(_ chunk: [UInt8], due: Double) {
        condition.lock()
        while bytes > limit { condition.wait() }
        chunks.append((chunk, due))
        bytes += chunk.count
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func take() -> ([UInt8], Double)? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty, !finished { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        let first = chunks.removeFirst()
        bytes -= first.0.count
        condition.broadcast()
        return first
    }
}

/// Runs `action` once `count` ticks came.
private final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private let action: () -> Void

    init(_ count: Int, action: @escaping () -> Void) {
        left = count
        self.action = action
    }

    func tick() {
        let last = lock.withLock { () -> Bool in
            left -= 1
            return left == 0
        }
        if last { action() }
    }
}
