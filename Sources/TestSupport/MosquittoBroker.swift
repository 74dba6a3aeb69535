import Foundation
import Glibc

/// A real `mosquitto` broker started by a test on a loopback port (anonymous, nothing kept
/// on disk), stopped when released.
public final class MosquittoBroker: @unchecked Sendable {
    public let port: Int
    /// The TLS listener's port, when started with a certificate.
    public let tlsPort: Int?
    /// The listener that takes only `users` (by password), when started with some.
    public let passwordPort: Int?
    private let process = Process()
    private let directory: URL

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts on `port` (default: a free one), and with `tls` (a certificate and its key) a
    /// TLS listener on a second free port too; returns once a client can publish.
    public init(port: Int? = nil, tls: TestCertificates.Pair? = nil, users: [String: String] = [:]) throws {
        self.port = try port ?? Self.freePort()
        tlsPort = try tls.map { _ in try Self.freePort() }
        passwordPort = users.isEmpty ? nil : try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("mosquitto.conf")
        var text = "per_listener_settings true\npersistence false\nlistener \(self.port) 127.0.0.1\nallow_anonymous true\n"
        if let tls, let tlsPort {
            text += "listener \(tlsPort) 127.0.0.1\nallow_anonymous true\ncertfile \(tls.certificate)\nkeyfile \(tls.key)\n"
        }
        if let passwordPort {
            let passwords = directory.appendingPathComponent("passwords")
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let made = try Tool.run("mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", passwords.path, user, password])
                guard made.status == 0 else { throw StartFailure(description: "mosquitto_passwd: \(made.stderr)") }
            }
            text += "listener \(passwordPort) 127.0.0.1\nallow_anonymous false\npassword_file \(passwords.path)\n"
        }
        // Started as root, mosquitto becomes the `mosquitto` user, who could not read the test's key.
        if getuid() == 0 { text = "user root\n" + text }
        try text.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", config.path]
        try Self.run(process, name: "mosquitto", log: directory.appendingPathComponent("mosquitto.log"), port: self.port, seconds: 10)
    }

    /// Starts a broker's `process`, its output into `log`, and waits until a client can publish
    /// on `port` (at most `seconds`); a broker that ends or is not ready by then is killed.
    static func run(_ process: Process, name: String, log: URL, port: Int, seconds: Double) throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while (try? publish(port: port, topic: "test/ready", payload: "1").status) != 0 {
            guard process.isRunning, Date() < deadline else {
                Tool.killNow(process)
                throw StartFailure(description: "\(name) did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func stop() {
        Tool.killNow(process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `mosquitto_pub`: one message (retained if asked), QoS 1 so it has reached the broker when this returns.
    @discardableResult
    public static func publish(port: Int, topic: String, payload: String, retain: Bool = false) throws -> Tool.Output {
        try Tool.run("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-m", payload] + (retain ? ["-r"] : []))
    }

    /// `mosquitto_pub -f`: a file's bytes as one message (larger than an argument may be).
    @discardableResult
    public static func publish(port: Int, topic: String, file: URL) throws -> Tool.Output {
        try Tool.run("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-f", file.path])
    }

    /// `mosquitto_pub -n -r`: an empty retained message, which clears what the broker kept on `topic`.
    @discardableResult
    public static func clearRetained(port: Int, topic: String) throws -> Tool.Output {
        try Tool.run("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-n", "-r"])
    }

    /// A loopback port nothing listens on now (the kernel's choice, released at once); any test's
    /// own server (Prometheus, say) takes one here too.
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StartFailure(description: "socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw StartFailure(description: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `mosquitto_sub` in the background: every message on `topics` since it started, with its
/// retained flag and bytes (written hex, so any payload is one line).
public final class MQTTWatch: @unchecked Sendable {
    public struct Message: Sendable {
        public var retained: Bool
        public var topic: String
        public var payload: [UInt8]
        public var text: String { String(decoding: payload, as: UTF8.self) }
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] }
    }

    private let process = Process()
    private let output: URL

    /// `clientID`: the one it connects as (nil: mosquitto_sub's own).
    public init(port: Int, topics: [String], clientID: String? = nil) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-watch-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-F", "%r %t %x"] + topics.flatMap { ["-t", $0] }
            + (clientID.map { ["-i", $0] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var isRunning: Bool { process.isRunning }

    /// Every message so far, in order.
    public var messages: [Message] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            let hex = parts.count == 3 ? Array(parts[2].utf8) : []
            guard hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var index = 0
            while index < hex.count {
                guard let byte = UInt8(String(decoding: hex[index..<(index + 2)], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
                index += 2
            }
            return Message(retained: parts[0] == "1", topic: String(parts[1]), payload: bytes)
        }
    }

    /// The first message after the first `skipping` that matches, waiting up to `seconds` (on a
    /// thread of its own, not on Swift's pool); nil on timeout.
    public func first(after skipping: Int = 0, seconds: Double, where match: @escaping @Sendable (Message) -> Bool) async -> Message? {
        await withCheckedContinuation { (done: CheckedContinuation<Message?, Never>) in
            Thread { [self] in
                let deadline = Date().addingTimeInterval(seconds)
                while true {
                    if let found = messages.dropFirst(skipping).first(where: match) { return done.resume(returning: found) }
                    if Date() > deadline { return done.resume(returning: nil) }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }.start()
        }
    }

    public func stop() {
        Tool.killNow(process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: output)
    }
}
