import Dispatch
import Foundation

/// Runs blocking work (a child process, a pipe read, a wait) on a Dispatch thread, never on
/// Swift's cooperative pool. The pool has one thread per core (two here), shared by every test
/// of the process: a test that blocks on it, or loops over pixels on it for seconds, holds back
/// the loopback tests beside it until they miss their deadlines.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs `body` on a thread of its own, for a loop that stands in for a player's clock: it neither
/// waits behind the tests on Swift's pool (whose sleeps, with hundreds of tests beside it, wake
/// seconds late) nor takes one of Dispatch's threads from the waits on it.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

extension Tool {
    /// `run` for async tests: the tool is waited for off the pool.
    public static func run(_ name: String, _ arguments: [String]) async throws -> Output {
        try await offPool { try run(name, arguments) as Output }
    }
}

extension RawHTTPConnection {
    /// `fetch` for async tests: the request (which a fault may hold for seconds) waits off the pool.
    public static func fetch(port: Int, _ method: String = "GET", _ path: String, body: String = "",
                             headers: [String: String] = [:], from source: String? = nil) async throws -> Response {
        try await offPool { try fetch(port: port, method, path, body: body, headers: headers, from: source) as Response }
    }
}

extension OriginProcess {
    /// An origin of the test's own, its start (until it listens) waited for off the pool.
    public static func start(arguments: [String] = []) async throws -> OriginProcess {
        try await offPool { try OriginProcess(arguments: arguments) }
    }
}

extension MosquittoBroker {
    /// A broker of the test's own, its start waited for off the pool.
    public static func start(port: Int? = nil, tls: TestCertificates.Pair? = nil,
                             users: [String: String] = [:]) async throws -> MosquittoBroker {
        try await offPool { try MosquittoBroker(port: port, tls: tls, users: users) }
    }

    /// `publish` for async tests: `mosquitto_pub` is waited for off the pool.
    @discardableResult
    public static func publish(port: Int, topic: String, payload: String, retain: Bool = false) async throws -> Tool.Output {
        try await offPool { try publish(port: port, topic: topic, payload: payload, retain: retain) as Tool.Output }
    }
}
