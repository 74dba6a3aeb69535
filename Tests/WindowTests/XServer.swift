import Dispatch
import Foundation
import TestSupport

/// Starts `process` from a thread of its own whose signal mask is empty. A child inherits the
/// mask of the thread that spawns it, and Swift's pool threads (Dispatch workers) block SIGTERM:
/// a server started from one would never end on `terminate()`.
func startWithSignalsUnblocked(_ process: Process) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            continuation.resume(with: Result { try process.run() })
        }
        thread.start()
    }
}

/// A real X server of the test's own: Xvfb on a display number it picks itself
/// (`-displayfd`: no race with other servers), 1280x800 at 24 bits, no window
/// manager. Screenshots with `xwd`, keys with `xdotool` (XTEST), as a person would.
final class XServer: @unchecked Sendable {
    static let width = 1280
    static let height = 800
    /// ":N".
    let display: String
    private let process = Process()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether Xvfb is on the PATH.
    static var installed: Bool { executable("Xvfb") != nil }
    /// Under CI a missing Xvfb is a failure, not a skip.
    static var required: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts Xvfb and waits (up to 30 s) until it accepts connections.
    init() async throws {
        guard let xvfb = Self.executable("Xvfb") else {
            throw Failure(description: "Xvfb is not installed (apt-get install xvfb; `make test` installs it)")
        }
        process.executableURL = xvfb
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(Self.width)x\(Self.height)x24", "-nolisten", "tcp", "-noreset"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try await startWithSignalsUnblocked(process)
        // Xvfb writes its display number once it listens; a server that never does is ended.
        let process = self.process
        let timeout = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: timeout)
        let text = try await offPool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        timeout.cancel()
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw Failure(description: "Xvfb did not start: \(text.isEmpty ? "no display number within 30 s" : text)")
        }
        display = ":\(number)"
    }

    /// Runs `body` with a server of its own, and ends the server afterwards, also when `body` throws.
    static func running<T>(_ body: (XServer) async throws -> T) async throws -> T {
        let server = try await XServer()
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Ends the server (it removes its own lock and socket) and waits for it; SIGKILL after 10 s.
    func stop() async {
        let process = self.process
        guard process.isRunning else { return }
        process.terminate()
        _ = try? await offPool {
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// A tool run with DISPLAY set to this server, off the pool, ended after 60 s at most.
    func run(_ tool: String, _ arguments: [String]) async throws -> Tool.Output {
        try await Tool.run("env", ["DISPLAY=\(display)", "timeout", "60", tool] + arguments)
    }

    /// The whole screen as a PNG (`xwd -root`, converted by ffmpeg).
    func screenshot(to png: URL) async throws {
        let xwd = png.deletingPathExtension().appendingPathExtension("xwd")
        let dump = try await run("xwd", ["-root", "-silent", "-out", xwd.path])
        guard dump.status == 0 else { throw Failure(description: "xwd: \(dump.stderr)") }
        let convert = try await run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", xwd.path, png.path])
        guard convert.status == 0 else { throw Failure(description: "ffmpeg xwd -> png: \(convert.stderr)") }
        try? FileManager.default.removeItem(at: xwd)
    }

    /// The id of the window with this exact title (waits until it is mapped).
    func window(named title: String) async throws -> UInt {
        let found = try await run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^\(title)$"])
        guard found.status == 0, let id = String(decoding: found.stdout, as: UTF8.self).split(separator: "\n").first.flatMap({ UInt($0) }) else {
            throw Failure(description: "xdotool found no window \"\(title)\": \(found.stderr)")
        }
        return id
    }

    /// A window's place and size on the screen, found by its exact title (waits until it is mapped).
    func geometry(ofWindowNamed title: String) async throws -> (x: Int, y: Int, width: Int, height: Int) {
        let found = try await run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^\(title)$", "getwindowgeometry", "--shell"])
        let fields = Dictionary(String(decoding: found.stdout, as: UTF8.self).split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            return (String(parts[0]), value)
        }, uniquingKeysWith: { first, _ in first })
        guard found.status == 0, let x = fields["X"], let y = fields["Y"], let width = fields["WIDTH"], let height = fields["HEIGHT"] else {
            throw Failure(description: "xdotool found no window \"\(title)\": \(found.stderr)")
        }
        return (x, y, width, height)
    }
}
