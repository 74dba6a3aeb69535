import Foundation
import Glibc
import Testing
import TestSupport

/// The real `zapper` started as systemd starts a `Type=notify` service: a datagram
/// socket of our own named by `$NOTIFY_SOCKET` (a path, or an abstract `@name`)
/// receives what it says. No origin answers its lineup: READY must not wait for a
/// picture.
struct SystemdNotifyTests {
    /// A bound AF_UNIX datagram socket, read without blocking.
    final class Listener: Sendable {
        let descriptor: Int32
        let name: String

        init(abstract: Bool) throws {
            let unique = "zapper-notify-\(UUID().uuidString.prefix(8))"
            name = abstract ? "@\(unique)" : FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var path = Array(name.utf8)
            if abstract { path[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            try #require(bound == 0, "bind \(name): errno \(errno)")
        }

        deinit {
            close(descriptor)
            if !name.hasPrefix("@") { unlink(name) }
        }

        /// The messages queued so far.
        func drain() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count <= 0 { return messages }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
        }
    }

    /// Runs zapper for about 1.5 s of loop with `environment` added; its messages, split into lines.
    func run(listener: Listener, environment: [String: String]) async throws -> (lines: [String], status: Int32, stderr: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lineup = directory.appendingPathComponent("lineup.m3u")
        let script = directory.appendingPathComponent("script.txt")
        try "#EXTM3U\n#EXTINF:-1 tvg-chno=\"1\",Nowhere\nhttp://127.0.0.1:9/nowhere.m3u8\n"
            .write(to: lineup, atomically: true, encoding: .utf8)
        try "wait 1500\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Repo.productsDirectory.appendingPathComponent("zapper")
        process.arguments = ["--lineup", lineup.path, "--script", script.path, "--display", "offscreen",
                             "--size", "320x180", "--audio-device", "null",
                             // A state of its own: the machine's may hold another run's crash-loop record.
                             "--state-dir", directory.appendingPathComponent("state").path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Listened to off the pool (a second and a half of polling).
        return try await offPool {
            var messages: [String] = []
            while process.isRunning {
                messages += listener.drain()
                Thread.sleep(forTimeInterval: 0.02)
            }
            messages += listener.drain()
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (messages.flatMap { $0.split(separator: "\n").map(String.init) }, process.terminationStatus, errors)
        }
    }

    @Test func readyThenHeartbeatsAtHalfTheWatchdogThenStopping() async throws {
        let listener = try Listener(abstract: false)
        let run = try await run(listener: listener, environment: ["NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "400000"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.first == "READY=1", "\(run.lines)")
        #expect(run.lines.filter { $0 == "READY=1" }.count == 1)
        #expect(run.lines.contains("STATUS=Tuning channel 1"), "\(run.lines)")
        #expect(run.lines.last == "STOPPING=1", "\(run.lines)")
        // Every 200 ms over about 1.5 s: not once per tick (60 a second), not missing.
        let heartbeats = run.lines.filter { $0 == "WATCHDOG=1" }.count
        #expect((5...12).contains(heartbeats), "\(heartbeats) heartbeats: \(run.lines)")
    }

    @Test func abstractSocketAndAnotherProcessesWatchdog() async throws {
        let listener = try Listener(abstract: true)
        let run = try await run(listener: listener, environment: ["NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "400000",
                                                            "WATCHDOG_PID": "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.first == "READY=1", "\(run.lines)")
        #expect(run.lines.last == "STOPPING=1", "\(run.lines)")
        #expect(!run.lines.contains("WATCHDOG=1"), "the watchdog is process 1's, not ours: \(run.lines)")
    }
}
