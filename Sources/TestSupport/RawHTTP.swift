import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over a plain socket, so a test sees
/// exactly what the origin did on the wire: the status, the announced
/// length, how many bytes came, and whether the connection ended cleanly,
/// early, or with a TCP reset.
public final class RawHTTPConnection: @unchecked Sendable {  // one thread at a time uses it
    public enum Ending: Equatable, Sendable {
        /// The whole announced body arrived.
        case complete
        /// The peer closed (FIN) before the announced body was complete.
        case closedEarly
        /// The peer reset the connection.
        case reset
    }

    public struct Response: Sendable {
        public var status: Int?
        public var headers: [String: String]
        public var body: [UInt8]
        public var ending: Ending
        public var contentLength: Int? { headers["content-length"].flatMap { Int($0) } }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let fd: Int32
    let port: Int
    private var buffered: [UInt8] = []

    /// `from`: the loopback address to send from (all of 127/8 is this machine's), as another
    /// client on the network would.
    public init(port: Int, from source: String? = nil, timeoutSeconds: Int = 30) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw Failure(description: "bind \(source): \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Sends one request and reads its response (or what there was of it).
    public func request(_ method: String = "GET", _ path: String, body: String = "", keepAlive: Bool = true,
                        headers: [String: String] = [:]) throws -> Response {
        // A `Host` among `headers` is sent in place of the address's.
        var head = "\(method) \(path) HTTP/1.1\r\n" + (headers["Host"] == nil ? "Host: 127.0.0.1:\(port)\r\n" : "")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
        if !body.isEmpty || method == "PUT" || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        let bytes = Array((head + "\r\n" + body).utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += n
        }

        // The head.
        var headerEnd: Int?
        while headerEnd == nil {
            if let range = find([13, 10, 13, 10], in: buffered) {
                headerEnd = range
                break
            }
            switch readMore() {
            case .data: continue
            case .eof: return Response(status: nil, headers: [:], body: [], ending: .closedEarly)
            case .reset: return Response(status: nil, headers: [:], body: [], ending: .reset)
            }
        }
        let headText = String(decoding: buffered[..<headerEnd!], as: UTF8.self)
        buffered.removeFirst(headerEnd! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = statusLine.count > 1 ? Int(statusLine[1]) : nil
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        let expected = method == "HEAD" ? 0 : length

        // The body.
        while buffered.count < expected {
            switch readMore() {
            case .data: continue
            case .eof: return Response(status: status, headers: headers, body: takeAll(), ending: .closedEarly)
            case .reset: return Response(status: status, headers: headers, body: takeAll(), ending: .reset)
            }
        }
        let body = Array(buffered.prefix(expected))
        buffered.removeFirst(expected)
        return Response(status: status, headers: headers, body: body, ending: .complete)
    }

    /// Sends `bytes` as they are (a part of a request, a byte at a time); false: the peer is gone.
    @discardableResult
    public func sendRaw(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the peer has closed the connection (a read that ends, without waiting).
    public var peerClosed: Bool {
        var probe: UInt8 = 0
        let n = recv(fd, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private enum ReadResult { case data, eof, reset }

    private func readMore() -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffered += chunk.prefix(n)
            return .data
        }
        if n == 0 { return .eof }
        return errno == ECONNRESET ? .reset : .eof
    }

    private func takeAll() -> [UInt8] {
        defer { buffered.removeAll() }
        return buffered
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }

    /// One request on a fresh connection.
    public static func fetch(port: Int, _ method: String = "GET", _ path: String, body: String = "",
                             headers: [String: String] = [:], from source: String? = nil) throws -> Response {
        try RawHTTPConnection(port: port, from: source).request(method, path, body: body, keepAlive: false, headers: headers)
    }
}
