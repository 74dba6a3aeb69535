import Foundation

/// What one tool did in the run: one row of the table, and what to say about it.
struct ToolResult {
    var tool: String
    /// Process spawn to its first frame, as the bench saw it (nil: not measurable for this tool).
    var firstFrameMilliseconds: Int?
    var measurement: WindowMeasurement?
    var played: String
    var notes: [String] = []
}

/// What every playback run shares.
struct PlaybackSetup {
    var tools: Tools
    var origin: OriginServer
    var channel: Int
    var channelName: String
    var masterURL: String
    var variants: [MasterVariant]
    /// The variant the measured minute must play: the largest.
    var target: MasterVariant
    /// The measured window, and the wait before it once the tool plays the target variant.
    var seconds: Double
    var warmup: Double
    /// How long zapper may take, after its first frame, to step up to the target variant.
    var settle: Double
    var directory: URL

    func variant(_ index: Int) -> String {
        variants.indices.contains(index) ? variants[index].resolution : "variant \(index)"
    }
}

/// Runs the measured window: waits for `start`, samples, keeps calling `poll`
/// for `seconds`, samples again. Throws when the tool exits early.
func measureWindow(_ child: ChildProcess, _ sampler: ProcessSampler, from start: Double, seconds: Double,
                   poll: () -> Void = {}) throws -> WindowMeasurement {
    while Monotonic.now < start {
        poll()
        guard child.isRunning else { throw BenchError("\(child.name) exited before the measured window:\n\(child.stderrTail())") }
        Thread.sleep(forTimeInterval: 0.02)
    }
    guard let first = sampler.sampleNow() else { throw BenchError("\(child.name) exited before the measured window") }
    Progress.say("\(child.name): measuring \(Int(seconds)) s")
    while Monotonic.now < first.time + seconds {
        poll()
        guard child.isRunning else { throw BenchError("\(child.name) exited during the measured window:\n\(child.stderrTail())") }
        Thread.sleep(forTimeInterval: 0.05)
    }
    guard let last = sampler.sampleNow() else { throw BenchError("\(child.name) exited at the end of the measured window") }
    poll()
    return WindowMeasurement(start: first, end: last, samples: sampler.samples)
}

/// Progress lines on standard error; the table goes to standard output.
enum Progress {
    static func say(_ line: String) {
        FileHandle.standardError.write(Data("zapper-bench: \(line)\n".utf8))
    }
}
