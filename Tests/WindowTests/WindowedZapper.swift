import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real `zapper` binary with no script (it plays until told to stop), in an
/// environment of the test's choosing (DISPLAY), its events and stderr in a scratch folder.
final class WindowedZapper: @unchecked Sendable {
    struct Run {
        var status: Int32
        var stderr: String
    }

    let directory: URL
    private let process = Process()
    private let eventsURL: URL
    private let errURL: URL

    /// `environment`: values to set (nil: removed) over the test's own; `script`: an automation script, if any.
    init(lineup: String, arguments: [String], environment: [String: String?], script: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lineupURL = directory.appendingPathComponent("lineup.m3u")
        eventsURL = directory.appendingPathComponent("events.jsonl")
        errURL = directory.appendingPathComponent("stderr.txt")
        try lineup.write(to: lineupURL, atomically: true, encoding: .utf8)
        var arguments = arguments
        if let script {
            let scriptURL = directory.appendingPathComponent("script.txt")
            try script.write(to: scriptURL, atomically: true, encoding: .utf8)
            arguments += ["--script", scriptURL.path]
        }
        process.executableURL = Repo.productsDirectory.appendingPathComponent("zapper")
        process.arguments = ["--lineup", lineupURL.path, "--events", eventsURL.path,
                             "--state-dir", directory.appendingPathComponent("state").path] + arguments
        var values = ProcessInfo.processInfo.environment
        for (name, value) in environment { values[name] = value }
        process.environment = values
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { kill() }

    var isRunning: Bool { process.isRunning }

    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// The events written so far; a line that does not read back as one fails the test, naming the
    /// line and why (while it runs, a last line not yet ended by its newline is left for the next read).
    var events: [LoggedEvent] {
        let live = process.isRunning  // (asked before the read: a zapper gone by then has written all its lines)
        let (events, failures) = EventLogFile.read(at: eventsURL, live: live)
        for failure in failures { Issue.record("\(failure)") }
        return events
    }

    func named(_ name: EventName) -> [LoggedEvent] { events.filter { $0.event.name == name } }

    /// Waits until an event of that name (and matching `where`) is in the log; false on timeout or exit.
    func waitFor(_ name: EventName, seconds: Double, where matches: (LoggedEvent) -> Bool = { _ in true }) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if named(name).contains(where: matches) { return true }
            if !process.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits (up to `seconds`) for zapper to end by itself; SIGKILL after that.
    func finish(seconds: Double = 60) async -> Run {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        kill()
        let process = self.process
        _ = try? await offPool { process.waitUntilExit() }
        return Run(status: process.terminationStatus, stderr: stderr)
    }

    /// SIGKILL, now (the clean-up after a failed test). Does not wait.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
