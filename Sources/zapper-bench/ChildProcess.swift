import Foundation

/// A tool started by the bench: its standard output and error go to files in
/// the run's folder, its start time is taken just before it is spawned.
final class ChildProcess {
    let name: String
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL
    /// Monotonic seconds just before the spawn.
    private(set) var startedAt = 0.0

    init(name: String, executable: URL, arguments: [String], directory: URL,
         environment: [String: String] = [:], standardInput: Any = FileHandle.nullDevice) throws {
        self.name = name
        stdoutURL = directory.appendingPathComponent("\(name).stdout")
        stderrURL = directory.appendingPathComponent("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = standardInput
    }

    func run() throws {
        startedAt = Monotonic.now
        try process.run()
    }

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Asks the tool to stop (SIGTERM), waits up to `seconds`, then kills it.
    func stop(within seconds: Double = 5) {
        guard process.isRunning else { return }
        process.terminate()
        if !waitForExit(seconds: seconds) {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// True when the process exited within the time.
    func waitForExit(seconds: Double) -> Bool {
        let deadline = Monotonic.now + seconds
        while process.isRunning, Monotonic.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { return false }
        process.waitUntilExit()
        return true
    }

    var standardError: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// The last lines of its standard error, for a failure message.
    func stderrTail(_ lines: Int = 8) -> String {
        standardError.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Follows a file another process appends to, handing out its new complete lines.
struct LogTail {
    let url: URL
    private var offset: UInt64 = 0
    private var partial = ""

    init(url: URL) { self.url = url }

    mutating func newLines() -> [String] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return [] }
        offset += UInt64(data.count)
        let text = partial + String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        partial = lines.removeLast()
        return lines
    }
}

/// Where the bench finds the tools it measures.
struct Tools {
    /// The folder of the built products (zapper, zapper-origin): by default the bench's own.
    let products: URL

    func product(_ name: String) throws -> URL {
        let url = products.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchError("\(url.path) is not built (make bench builds it)")
        }
        return url
    }

    /// A program on the PATH (ffmpeg, mpv).
    static func onPath(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw BenchError("\(name) is not on the PATH (make bench installs it)")
    }

    /// The first `words` words of the first line a tool prints for its version flag ("ffmpeg version 5.1.9-0+deb12u1", "mpv 0.35.1").
    static func version(of name: String, flag: String, words count: Int, directory: URL) -> String {
        guard let url = try? onPath(name),
              let child = try? ChildProcess(name: "\(name)-version", executable: url, arguments: [flag], directory: directory),
              (try? child.run()) != nil, child.waitForExit(seconds: 5) else { return name }
        let text = (try? String(contentsOf: child.stdoutURL, encoding: .utf8)) ?? ""
        let words = text.split(separator: "\n").first?.split(separator: " ").prefix(count).joined(separator: " ")
        return words ?? name
    }

    static func ownFolder() -> URL {
        let path = Bundle.main.executableURL?.resolvingSymlinksInPath()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return path.deletingLastPathComponent()
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ChildProcess {
    /// Starts the process and samples it (`ProcessSampler`) while `body` runs; stops both after.
    func runSampled<T>(_ body: (ProcessSampler) throws -> T) throws -> T {
        try run()
        let sampler = ProcessSampler(pid: pid)
        sampler.start()
        defer {
            sampler.stop()
            stop()
        }
        return try body(sampler)
    }
}
