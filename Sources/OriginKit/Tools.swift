import Foundation

/// Runs the command-line tools the origin needs (`ffmpeg`, `ffprobe`, `fc-match`).
enum Tools {
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Result {
        let status: Int32
        let output: String
    }

    /// Runs a tool to completion with its output collected in a file (a pipe
    /// could fill up and stall a chatty tool).
    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        guard let executable = find(name) else {
            throw OriginError.badCache(path: name, reason: "\(name) is not installed (apt-get install ffmpeg fontconfig)")
        }
        return try run(executable: executable, arguments)
    }

    /// Runs the program at `executable` to completion, its output collected as `run` does.
    static func run(executable: String, _ arguments: [String]) throws -> Result {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        let logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("zapper-origin-\(getpid())-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw OriginError.badCache(path: logURL.path, reason: "cannot create a log file for \(name)")
        }
        defer { try? FileManager.default.removeItem(at: logURL) }
        let log = try FileHandle(forWritingTo: logURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try log.close()
        let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output)
    }

    static func commandLine(_ name: String, _ arguments: [String]) -> String {
        ([name] + arguments.map { $0.contains(" ") || $0.contains("'") ? "\"\($0)\"" : $0 }).joined(separator: " ")
    }

    /// A bold sans font file for burned-in text and logos.
    static func boldFont() throws -> String {
        if let result = try? run("fc-match", ["-f", "%{file}", "DejaVu Sans:bold"]),
           result.status == 0, FileManager.default.fileExists(atPath: result.output) {
            return result.output
        }
        let fallback = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        guard FileManager.default.fileExists(atPath: fallback) else {
            throw OriginError.badCache(path: fallback, reason: "no bold font found (apt-get install fonts-dejavu-core fontconfig)")
        }
        return fallback
    }
}

/// FNV-1a, 64 bits: names cache folders after what they were made from.
func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x100_0000_01b3
    }
    return String(hash, radix: 16)
}
