import Foundation

/// A real broker that speaks MQTT 3.1.1 only (amqtt 0.12.1, from PyPI: Debian ships none, and
/// Mosquitto 2 always speaks v5), started by a test on a free loopback port and stopped when
/// released. It answers a v5 CONNECT with 3.1.1's "unacceptable protocol version", as every
/// broker older than MQTT 5 does. `make test` installs it (`ZAPPER_AMQTT` names its `amqtt`).
public final class OlderBroker: @unchecked Sendable {
    public let port: Int
    private let process = Process()
    private let directory: URL

    /// Where `make test` installs amqtt, unless `ZAPPER_AMQTT` says otherwise.
    public static var executable: String {
        ProcessInfo.processInfo.environment["ZAPPER_AMQTT"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/zapper/amqtt-0.12.1/bin/amqtt").path
    }

    /// Starts it; returns once a 3.1.1 client can publish.
    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw MosquittoBroker.StartFailure(description: "no amqtt at \(Self.executable): `make test` installs it (a broker that speaks MQTT 3.1.1 only)")
        }
        port = try MosquittoBroker.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("amqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("amqtt.yaml")
        try """
            listeners:
              default:
                type: tcp
                bind: 127.0.0.1:\(port)
            plugins:
              amqtt.plugins.authentication.AnonymousAuthPlugin:
                allow_anonymous: true

            """.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", config.path]
        try MosquittoBroker.run(process, name: "amqtt", log: directory.appendingPathComponent("amqtt.log"), port: port, seconds: 20)
    }

    public func stop() {
        Tool.killNow(process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A broker of the test's own, its start waited for off the pool.
    public static func start() async throws -> OlderBroker {
        try await offPool { try OlderBroker() }
    }
}
