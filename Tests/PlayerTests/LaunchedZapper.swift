import Foundation
import Testing
import TestSupport
import ZapperCore

/// The real `zapper` binary started with a lineup and a script, its sound
/// going through real ALSA into a `file` PCM (WAV) in a scratch folder.
final class LaunchedZapper {
    struct Run {
        var status: Int32
        var events: [LoggedEvent]
        var stderr: String
        var wav: Data
        /// The events' names, in order (a line that is no event zapper writes failed the test when read).
        var names: [EventName] { events.map(\.event.name) }
        func named(_ name: EventName) -> [LoggedEvent] { events.filter { $0.event.name == name } }
    }

    let directory: URL
    private let process = Process()
    private let eventsURL: URL
    private let errURL: URL
    private let wavURL: URL

    /// Its place among the zappers running at once (`LaunchSlots`), given back when it exits.
    private let slot = SlotHold(LaunchSlots.zappers)
    /// Told by the process's termination handler (no thread waits for the exit).
    private let exit = ExitSignal()

    /// Starts it once fewer than `LaunchSlots.zappers` allows are running (without a pool thread waiting).
    init(lineup: String, arguments: [String], script: String, environment added: [String: String] = [:]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-play-\(UUID().uuidString)")
        eventsURL = directory.appendingPathComponent("events.jsonl")
        wavURL = directory.appendingPathComponent("capture.wav")
        errURL = directory.appendingPathComponent("stderr.txt")
        await slot.take()
        do {
            try start(lineup: lineup, arguments: arguments, script: script, environment: added)
        } catch {
            slot.giveBack()
            throw error
        }
    }

    deinit {
        // A test that ended early without waiting for its zapper: the place is free once it exits.
        let slot = self.slot
        exit.whenExited { slot.giveBack() }
    }

    private func start(lineup: String, arguments: [String], script: String, environment added: [String: String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lineupURL = directory.appendingPathComponent("lineup.m3u")
        let scriptURL = directory.appendingPathComponent("script.txt")
        let configURL = directory.appendingPathComponent("alsa.conf")
        try lineup.write(to: lineupURL, atomically: true, encoding: .utf8)
        try script.replacingOccurrences(of: "$DIR", with: directory.path).write(to: scriptURL, atomically: true, encoding: .utf8)
        try """
            pcm.!default { type file; slave.pcm "nullsink"; file "\(wavURL.path)"; format "wav" }
            pcm.nullsink { type null }
            """.write(to: configURL, atomically: true, encoding: .utf8)

        process.executableURL = Repo.productsDirectory.appendingPathComponent("zapper")
        // Each run keeps its state apart (a run's last channel must not start the next).
        let state = arguments.contains("--state-dir") ? [] : ["--state-dir", directory.appendingPathComponent("state").path]
        // A small screen unless the test needs a size: the offscreen default (1920x1080) costs
        // a debug build twice the CPU, and the tests run side by side on two cores.
        let size = arguments.contains("--size") ? [] : ["--size", "640x360"]
        process.arguments = ["--lineup", lineupURL.path, "--events", eventsURL.path, "--script", scriptURL.path] + state + size + arguments
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
        let exit = self.exit
        process.terminationHandler = { _ in exit.exited() }
        do {
            try process.run()
        } catch {
            exit.exited()
            throw error
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Open file descriptors and threads now (/proc); nil once the process is gone.
    var descriptorsAndThreads: (descriptors: Int, threads: Int)? { Self.descriptorsAndThreads(pid: pid) }

    static func descriptorsAndThreads(pid: Int32) -> (descriptors: Int, threads: Int)? {
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

    /// The events written so far (while it runs, a last line not yet ended by its newline is left for the next read).
    var events: [LoggedEvent] {
        let live = !exit.hasExited  // (asked before the read: a zapper gone by then has written all its lines)
        return Self.events(at: eventsURL, live: live)
    }

    /// The log's events; a line that does not read back as one fails the test, naming the line and why.
    /// `live`: zapper still writes the log, and a last line without its newline is one being written (skipped).
    static func events(at eventsURL: URL, live: Bool = false) -> [LoggedEvent] {
        let (events, failures) = EventLogFile.read(at: eventsURL, live: live)
        for failure in failures { Issue.record("\(failure)") }
        return events
    }

    /// Waits until an event of that name has been written (after `skipping` of them); false on timeout or exit.
    /// (Async, like `finish`: a test blocking one of Swift's two pool threads here for seconds
    /// starves every async test running beside it.)
    func waitFor(_ name: EventName, skipping: Int = 0, seconds: Double) async -> Bool {
        await reading(after: name, skipping: skipping, seconds: seconds) { true } ?? false
    }

    /// Waits as `waitFor` does, on a thread of its own, and calls `read` there the moment the
    /// event is seen: what comes just after an event (a process that quits two seconds later)
    /// is read in time even when Swift's two pool threads are busy with other tests.
    func reading<T: Sendable>(after name: EventName, skipping: Int = 0, seconds: Double,
                              _ read: @escaping @Sendable () -> T) async -> T? {
        let (eventsURL, exit) = (self.eventsURL, self.exit)
        return await withCheckedContinuation { (done: CheckedContinuation<T?, Never>) in
            Thread {
                let deadline = Date().addingTimeInterval(seconds)
                while Date() < deadline {
                    if Self.count(name, at: eventsURL) > skipping { return done.resume(returning: read()) }
                    if exit.hasExited {
                        // Written just before it ended?
                        return done.resume(returning: Self.count(name, at: eventsURL) > skipping ? read() : nil)
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                done.resume(returning: nil)
            }.start()
        }
    }

    /// Events of that name in the log so far, counted in its text (no JSON parsed at each poll).
    static func count(_ name: EventName, at eventsURL: URL) -> Int {
        guard let text = try? String(contentsOf: eventsURL, encoding: .utf8) else { return 0 }
        let field = "\"event\": \"\(name.rawValue)\""
        return text.split(separator: "\n").count { line in
            guard let range = line.range(of: field) else { return false }
            return line[range.upperBound...].first.map { $0 == "," || $0 == "}" } ?? false
        }
    }

    /// SIGKILL: no clean-up of any kind, as a power cut or a crash.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        await exited()
    }

    /// Waits for the process to end (its termination handler tells), then gives its place back.
    private func exited() async {
        let exit = self.exit
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            exit.whenExited { done.resume() }
        }
        slot.giveBack()
    }

    /// Puts `fault` on `channel` of `origin` once `event` is logged, clears it `seconds`
    /// after the player's next `load-failed` (of `kind`, when given: on a busy machine a
    /// picture late for 2 s is a `load-failed` of its own, and must not clear the fault the
    /// test is about; each wait recorded as an issue when it times out), and returns the
    /// finished run.
    /// From the `load-failed` to the clearing the test waits on a thread of its own: a
    /// wait on Swift's two pool threads can resume many seconds late while other tests
    /// block them, and an outage that long rightly makes the player tune the channel again.
    func fault(_ fault: String, on channel: Int, of origin: OriginProcess, after event: EventName,
               clearingAfter seconds: Double, failing kind: String? = nil) async throws -> Run {
        #expect(await waitFor(event, seconds: 25), "no \(event)")
        #expect(try await RawHTTPConnection.fetch(port: origin.port, "PUT", "/control/faults/\(channel)", body: fault).status == 200)
        let (exit, eventsURL) = (self.exit, self.eventsURL)
        let (failed, cleared) = await withCheckedContinuation { (done: CheckedContinuation<(Bool, Int?), Never>) in
            Thread {
                let deadline = Date().addingTimeInterval(40)
                var failed = false
                while !failed, Date() < deadline, !exit.hasExited {
                    // (Read without recording: a bad line fails the test when `finish` reads the log.)
                    failed = EventLogFile.read(at: eventsURL, live: true).events.contains {
                        guard case let .loadFailed(_, failure) = $0.event else { return false }
                        return kind == nil || failure.name == kind
                    }
                    if !failed { Thread.sleep(forTimeInterval: 0.05) }
                }
                if failed { Thread.sleep(forTimeInterval: seconds) }
                let status = try? RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults/\(channel)").status
                done.resume(returning: (failed, status))
            }.start()
        }
        #expect(failed, "no load-failed\(kind.map { " (\($0))" } ?? "") during \(fault)")
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
