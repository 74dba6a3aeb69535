import ArgumentParser
import Foundation

/// `zapper-bench soak`: months of a box's life, compressed. zapper flips
/// adjacent, by number and back (`KEY_LAST`) `--flips` times, while the origin's
/// faults are switched on and off at random on random channels; its resident
/// memory, open file descriptors, threads and event counts are printed at the
/// start and every `--every` flips. It reports; the 300-flip test asserts.
struct SoakBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Flip for a long time with origin faults on and off; print RSS, fds, threads and event counts.")

    @Option(help: "How many channel changes.")
    var flips = 10_000

    @Option(help: "Milliseconds between changes.")
    var dwell = 300

    @Option(help: "Print a row every this many changes.")
    var every = 1000

    @Option(help: "Seed of the random faults and channel numbers (the same seed, the same run).")
    var seed: UInt64 = 1

    @OptionGroup var inputs: BenchInputs

    static let faults = ["segment-404", "playlist-5xx", "delay=1500", "truncate=0.5", "reset=0.3", "outage", "stall",
                         "bandwidth=200000"]

    func validate() throws {
        guard flips >= 1, dwell >= 50, every >= 1 else { throw ValidationError("--flips, --every >= 1, --dwell >= 50") }
    }

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        Progress.say("starting zapper-origin")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"), channels: inputs.channelsPath, directory: directory)
        defer { origin.stop() }
        let lineup = try HTTP.text(origin.baseURL + "/demo.m3u")
        let numbers = HTTP.channelNumbers(lineup: lineup)
        guard numbers.count >= 3 else { throw BenchError("the origin's lineup has too few channels") }
        var random = SeededRandom(seed: seed)
        let (child, eventsURL) = try scriptedZapper(name: "zapper-soak", tools: tools, directory: directory, lineup: lineup,
                                                    script: script(numbers: numbers, random: &random),
                                                    arguments: ["--channel", String(numbers[0]), "--size", "1280x720"])
        Progress.say("zapper: \(flips) changes, \(dwell) ms apart, faults on and off (about \(flips * dwell / 60_000) min)")
        try child.run()
        defer { child.stop() }
        var rows: [SoakRow] = []
        var nextRow = 0
        var faulted: Int?
        var nextFault = Monotonic.now + 5
        var counts = EventCounts(url: eventsURL)
        let curl = try Tools.onPath("curl")
        while child.isRunning {
            counts.update()
            if counts.tunes >= nextRow, counts.firstFrames > 0, let row = SoakRow(pid: child.pid, flips: counts.tunes - 1, counts: counts) {
                rows.append(row)
                Progress.say(row.line)
                nextRow = (counts.tunes / every + 1) * every + 1
            }
            if Monotonic.now >= nextFault {
                // One channel faulted at a time, for 2 to 20 s, then healthy for as long.
                if let channel = faulted {
                    control(curl, "DELETE", origin: origin, channel: channel)
                    faulted = nil
                } else {
                    let channel = numbers[Int(random.next() % UInt64(numbers.count))]
                    let fault = Self.faults[Int(random.next() % UInt64(Self.faults.count))]
                    control(curl, "PUT", origin: origin, channel: channel, body: fault)
                    faulted = channel
                }
                nextFault = Monotonic.now + 2 + Double(random.next() % 18)
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        if let channel = faulted { control(curl, "DELETE", origin: origin, channel: channel) }
        let status = child.process.terminationStatus
        counts.update()
        print(SoakRow.table(rows, final: counts, status: status, reason: child.process.terminationReason == .uncaughtSignal
                            ? "killed by signal \(status)" : "exit \(status)", dwell: dwell))
        guard child.process.terminationReason == .exit, status == 0 else {
            throw BenchError("zapper did not finish the soak cleanly:\n\(child.stderrTail())")
        }
    }

    /// Adjacent flips, typed numbers and KEY_LAST in turn, each followed by the dwell.
    private func script(numbers: [Int], random: inout SeededRandom) -> String {
        var lines = ["wait-event first-frame 30000", "wait 2000"]
        for index in 0..<flips {
            switch index % 4 {
            case 0: lines.append("press KEY_CHANNELUP")
            case 1: lines.append("press KEY_CHANNELDOWN")
            case 2: lines += String(numbers[Int(random.next() % UInt64(numbers.count))]).map { "press KEY_\($0)" } + ["press KEY_OK"]
            default: lines.append("press KEY_LAST")
            }
            lines.append("wait \(dwell)")
        }
        // The last change settles, then the run's final row.
        lines += ["wait 5000", "quit"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func control(_ curl: URL, _ method: String, origin: OriginServer, channel: Int, body: String? = nil) {
        var arguments = ["-s", "-o", "/dev/null", "-X", method, "\(origin.baseURL)/control/faults/\(channel)"]
        if let body { arguments += ["--data", body] }
        let process = Process()
        process.executableURL = curl
        process.arguments = arguments
        try? process.run()
        process.waitUntilExit()
    }
}

/// xorshift64*: the soak's faults and numbers, the same for the same seed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
