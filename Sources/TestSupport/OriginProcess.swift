import Foundation
import OriginKit

/// Paths of this checkout and of the built executables.
public enum Repo {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    public static let catalogURL = root.appendingPathComponent("channels/channels.json")

    public static func catalog() throws -> ChannelCatalog { try ChannelCatalog.load(from: catalogURL) }

    /// The folder holding the built products (the test bundle sits beside them).
    public static var productsDirectory: URL {
        if let explicit = ProcessInfo.processInfo.environment["ZAPPER_PRODUCTS"] {
            return URL(fileURLWithPath: explicit)
        }
        var url = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("zapper-origin").path) {
            url.deleteLastPathComponent()
        }
        return url.path == "/" ? root.appendingPathComponent(".build/debug") : url
    }
}

/// A `zapper-origin` started by a test, on a free port, stopped with the test
/// process (it exits when its standard input closes).
public final class OriginProcess: @unchecked Sendable {
    let process = Process()
    public let port: Int
    /// The https listener's port, when started with `--tls-cert`.
    public let httpsPort: Int?
    private let input = Pipe()

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(arguments: [String] = [], timeoutSeconds: Double = 1200) throws {
        process.executableURL = Repo.productsDirectory.appendingPathComponent("zapper-origin")
        process.arguments = ["--port", "0", "--exit-with-stdin", "--channels", Repo.catalogURL.path] + arguments
        process.currentDirectoryURL = Repo.root
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()

        // The first line on stdout says where it listens; the first run may encode for minutes.
        let reader = output.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while !text.contains("\n") {
            let data = reader.availableData
            if data.isEmpty || Date() > deadline {
                throw StartFailure(description: "zapper-origin exited or timed out before listening: \(text)")
            }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "http://127.0.0.1:"),
              let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw StartFailure(description: "unexpected first line: \(text)")
        }
        self.port = port
        httpsPort = text.range(of: "https://127.0.0.1:").flatMap { Int(text[$0.upperBound...].prefix { $0.isNumber }) }
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// One origin shared by the tests of this process.
    public static let shared: Result<OriginProcess, any Error> = Result { try OriginProcess() }
}

/// Runs a command-line tool and collects its output.
public enum Tool {
    /// SIGKILL, and waits for it: a test process's threads may block SIGTERM, and its children
    /// inherit that mask (`terminate` would leave them running, and a wait would never end).
    public static func killNow(_ process: Process) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
    }

    public static func run(_ name: String, _ arguments: [String]) throws -> Output {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("tool-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Writes bytes to a temporary file for a tool to read.
    public static func temporaryFile(_ bytes: [UInt8], suffix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-test-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url
    }
}

/// The power of one frequency in a block of samples (Goertzel's algorithm).
public func goertzelPower(_ samples: [Float], frequency: Double, sampleRate: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var previous = 0.0
    var beforePrevious = 0.0
    for sample in samples {
        let current = Double(sample) + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = current
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
}

