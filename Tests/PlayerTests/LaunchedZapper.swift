import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real `zapper` binary started with a lineup and a script, its sound
/// going through real ALSA into a `file` PCM (WAV) in a scratch folder.
final class LaunchedZapper {
    struct Run {
        var status: Int32
        var events: [[String: Any]]
        var stderr: String
        var wav: Data
        /// The events' names, in order (all of them are `EventName`s: one that is not fails the test).
        var names: [EventName] {
            events.compactMap { event in
                let name = event["event"] as? String ?? ""
                let known = EventName(rawValue: name)
                #expect(known != nil, "an event not in EventName: \(name)")
                return known
            }
        }
        func named(_ name: EventName) -> [[String: Any]] { events.filter { $0["event"] as? String == name.rawValue } }
    }

    let directory: URL
    private let process = Process()
    private let eventsURL: URL
    private let errURL: URL
    private let wavURL: URL

    init(lineup: String, arguments: [String], script: String, environment added: [String: String] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lineupURL = directory.appendingPathComponent("lineup.m3u")
        let scriptURL = directory.appendingPathComponent("script.txt")
        let configURL = directory.appendingPathComponent("alsa.conf")
        eventsURL = directory.appendingPathComponent("events.jsonl")
        wavURL = directory.appendingPathComponent("capture.wav")
        errURL = directory.appendingPathComponent("stderr.txt")
        try lineup.write(to: lineupURL, atomically: true, encoding: .utf8)
        try script.replacingOccurrences(of: "$DIR", with: directory.path).write(to: scriptURL, atomically: true, encoding: .utf8)
        try """
            pcm.!default { type file; slave.pcm "nullsink"; file "\(wavURL.path)"; format "wav" }
            pcm.nullsink { type null }
            """.write(to: configURL, atomically: true, encoding: .utf8)

        process.executableURL = Repo.productsDirectory.appendingPathComponent("zapper")
        // Each run keeps its state apart (a run's last channel must not start the next).
        let state = arguments.contains("--state-dir") ? [] : ["--state-dir", directory.appendingPathComponent("state").path]
        process.arguments = ["--lineup", lineupURL.path, "--events", eventsURL.path, "--script", scriptURL.path] + state + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = configURL.path
        // The offscreen display even on a desktop: `--display auto` would open a window there.
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment.merge(added) { $1 }
        process.environment = environment
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Open file descriptors and threads now (/proc); nil once the process is gone.
    var descriptorsAndThreads: (descriptors: Int, threads: Int)? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
              let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        return (descriptors.count, threads.count)
    }

    /// The peak resident memory so far (VmHWM, kB); nil once the process is gone.
    var peakResidentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// What it has said on stderr so far.
    var stderrSoFar: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// The events written so far.
    var events: [[String: Any]] { Self.events(at: eventsURL) }

    static func events(at eventsURL: URL) -> [[String: Any]] {
        let lines = (try? String(contentsOf: eventsURL, encoding: .utf8)) ?? ""
        return lines.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until an event of that name has been written (after `skipping` of them); false on timeout or exit.
    /// (Async, like `finish`: a test blocking one of Swift's two pool threads here for seconds
    /// starves every async test running beside it.)
    func waitFor(_ name: EventName, skipping: Int = 0, seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if events.filter({ $0["event"] as? String == name.rawValue }).count > skipping { return true }
            if !process.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// SIGKILL: no clean-up of any kind, as a power cut or a crash.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        await exited()
    }

    /// Waits for the process to end on a Dispatch thread, not on the pool.
    private func exited() async {
        let process = self.process
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                process.waitUntilExit()
                done.resume()
            }
        }
    }

    /// Puts `fault` on `channel` of `origin` once `event` is logged, clears it `seconds`
    /// after the player's next `load-failed` (each wait recorded as an issue when it
    /// times out), and returns the finished run.
    /// From the `load-failed` to the clearing the test waits on a thread of its own: a
    /// wait on Swift's two pool threads can resume many seconds late while other tests
    /// block them, and an outage that long rightly makes the player tune the channel again.
    func fault(_ fault: String, on channel: Int, of origin: OriginProcess, after event: EventName,
               clearingAfter seconds: Double) async throws -> Run {
        #expect(await waitFor(event, seconds: 25), "no \(event)")
        #expect(try RawHTTPConnection.fetch(port: origin.port, "PUT", "/control/faults/\(channel)", body: fault).status == 200)
        let (process, eventsURL) = (self.process, self.eventsURL)
        let (failed, cleared) = await withCheckedContinuation { (done: CheckedContinuation<(Bool, Int?), Never>) in
            Thread {
                let deadline = Date().addingTimeInterval(40)
                var failed = false
                while !failed, Date() < deadline, process.isRunning {
                    failed = Self.events(at: eventsURL).contains { $0["event"] as? String == EventName.loadFailed.rawValue }
                    if !failed { Thread.sleep(forTimeInterval: 0.05) }
                }
                if failed { Thread.sleep(forTimeInterval: seconds) }
                let status = try? RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/\(channel)").status
                done.resume(returning: (failed, status))
            }.start()
        }
        #expect(failed, "no load-failed during \(fault)")
        #expect(cleared == 200)
        return await finish()
    }

    func finish() async -> Run {
        await exited()
        return Run(status: process.terminationStatus, events: events,
                   stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
                   wav: (try? Data(contentsOf: wavURL)) ?? Data())
    }
}
