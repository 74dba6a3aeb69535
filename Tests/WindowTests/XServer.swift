import Dispatch
import Foundation
import TestSupport

/// Runs blocking work (a child process, a pipe read) on a Dispatch thread, never on Swift's pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// A tool's exit status and output (TestSupport's `Tool.run`), run off the pool.
struct ToolRun: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String

    init(_ name: String, _ arguments: [String]) async throws {
        self = try await offPool {
            let output = try Tool.run(name, arguments)
            return ToolRun(status: output.status, stdout: output.stdout, stderr: output.stderr)
        }
    }

    private init(status: Int32, stdout: Data, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
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
        try process.run()
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

    /// Ends the server (it removes its own lock and socket). Does not wait.
    func stop() {
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }

    /// A tool run with DISPLAY set to this server, off the pool, ended after 60 s at most.
    func run(_ tool: String, _ arguments: [String]) async throws -> ToolRun {
        try await ToolRun("env", ["DISPLAY=\(display)", "timeout", "60", tool] + arguments)
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
