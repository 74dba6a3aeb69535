import ArgumentParser
import Foundation

/// `zapper-bench soak`: months of a box's life, compressed. zapper flips adjacent, by number
/// and back (`KEY_LAST`) `--flips` times, while the origin's faults are switched on and off at
/// random on the other channels. At the start and every `--every` flips it goes back to the
/// first channel and plays it for `--settle` ms with no fault anywhere, then takes a snapshot:
/// its resident memory (the median of five readings over the next 2.5 s, each with what
/// jemalloc holds, scraped from zapper's metrics), open file descriptors, threads and event
/// counts are read then, so that each reading is of the same thing (a reading in the middle of
/// the flips swings by 20 MB with what the moment holds) and a leak shows as a difference from
/// the start. It reports; the 300-flip test asserts.
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

    @Option(help: "Milliseconds the first channel plays, faults off, before each reading.")
    var settle = 10_000

    @Option(help: "Seed of the random faults and channel numbers (the same seed, the same run).")
    var seed: UInt64 = 1

    @OptionGroup var inputs: BenchInputs

    /// Readings taken at each checkpoint (the RSS at rest still moves by a megabyte with the
    /// segments in flight): their median is the row.
    static let samples = 5

    /// zapper's words when it judges this box's speed (`DecoderThreads`, `DecodeCeiling`) or a judgement lapses.
    static let judgements = ["too slowly here", "more slowly than it plays", "the judgement that"]

    static let faults = ["segment-404", "playlist-5xx", "delay=1500", "truncate=0.5", "reset=0.3", "outage", "stall",
                         "bandwidth=200000"]

    func validate() throws {
        guard flips >= 1, dwell >= 50, every >= 1, settle >= 1000 else {
            throw ValidationError("--flips, --every >= 1, --dwell >= 50, --settle >= 1000")
        }
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
        // Metrics on a free loopback port: each reading also scrapes what jemalloc holds.
        let config = directory.appendingPathComponent("zapper-soak.toml")
        try "[metrics]\nlisten = \"127.0.0.1:0\"\n".write(to: config, atomically: true, encoding: .utf8)
        let (child, eventsURL) = try scriptedZapper(name: "zapper-soak", tools: tools, directory: directory, lineup: lineup,
                                                    script: script(numbers: numbers, directory: directory, random: &random),
                                                    arguments: ["--channel", String(numbers[0]), "--size", "1280x720", "--config", config.path])
        Progress.say("zapper: \(flips) changes, \(dwell) ms apart, faults on and off, a reading every \(every) after \(settle) ms on channel \(numbers[0]) (about \((flips * dwell + (flips / every + 1) * (settle + 5000)) / 60_000) min)")
        try child.run()
        defer { child.stop() }
        var rows: [SoakRow] = []
        var faulted: Int?
        var nextFault = Monotonic.now + 5
        // The first channel typed at each checkpoint: its settling begins (no fault from then
        // until the reading).
        var counts = EventCounts(url: eventsURL, marker: "\"event\": \"tune\", \"channel\": \(numbers[0]), \"reason\": \"number\"")
        var settling = true
        let curl = try Tools.onPath("curl")
        var said = 0  // zapper's lines of stderr looked at
        while child.isRunning {
            counts.update()
            if !rows.isEmpty, counts.marked >= rows.count, !settling {
                settling = true
                if let channel = faulted { control(curl, "DELETE", origin: origin, channel: channel) }
                faulted = nil
            }
            if counts.byName[.snapshot, default: 0] > rows.count {
                // The snapshot's own buffers are let go as soon as it is written. Then the median
                // of `samples` readings half a second apart, while the channel keeps playing.
                var readings: [SoakRow] = []
                let metrics = AllocatorScrape.url(zapperSaid: child.standardError)
                for _ in 0..<Self.samples {
                    Thread.sleep(forTimeInterval: 0.3)
                    readings += SoakRow(pid: child.pid, flips: rows.count * every, counts: counts,
                                        allocator: metrics.flatMap(AllocatorScrape.read)).map { [$0] } ?? []
                    Thread.sleep(forTimeInterval: 0.2)
                }
                if let row = SoakRow.median(of: readings) {
                    Progress.say(row.line)
                    rows.append(row)
                }
                // What zapper judged about this box's speed since the last reading: a decoder on
                // frame threads, or larger pictures left out, holds memory a reading shows.
                let lines = child.standardError.split(separator: "\n")
                for line in lines.dropFirst(said) where Self.judgements.contains(where: { line.contains($0) }) {
                    Progress.say("  \(line)")
                }
                said = lines.count
                settling = false
                nextFault = Monotonic.now + 2
            }
            if !settling, Monotonic.now >= nextFault {
                // One channel faulted at a time, for 2 to 20 s, then healthy for as long.
                if let channel = faulted {
                    control(curl, "DELETE", origin: origin, channel: channel)
                    faulted = nil
                } else {
                    let channel = numbers[1 + Int(random.next() % UInt64(numbers.count - 1))]
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
                            ? "killed by signal \(status)" : "exit \(status)", dwell: dwell, settle: settle))
        guard child.process.terminationReason == .exit, status == 0 else {
            throw BenchError("zapper did not finish the soak cleanly:\n\(child.stderrTail())")
        }
    }

    /// Adjacent flips, typed numbers (never the first channel's) and KEY_LAST in turn, each
    /// followed by the dwell; a checkpoint at the start and every `every` flips.
    private func script(numbers: [Int], directory: URL, random: inout SeededRandom) -> String {
        func typed(_ number: Int) -> [String] { String(number).map { "press KEY_\($0)" } + ["press KEY_OK"] }
        var checkpoints = 0
        func checkpoint() -> [String] {
            // The second channel first, so that typing the first is always a change (the marker).
            let back = checkpoints == 0 ? [] : typed(numbers[1]) + ["wait 1000"] + typed(numbers[0])
            checkpoints += 1
            return back + ["wait \(settle)", "snapshot \(directory.appendingPathComponent("settled-\(checkpoints).png").path)", "wait 3000"]
        }
        var lines = ["wait-event first-frame 30000"] + checkpoint()
        for index in 0..<flips {
            switch index % 4 {
            case 0: lines.append("press KEY_CHANNELUP")
            case 1: lines.append("press KEY_CHANNELDOWN")
            case 2: lines += typed(numbers[1 + Int(random.next() % UInt64(numbers.count - 1))])
            default: lines.append("press KEY_LAST")
            }
            lines.append("wait \(dwell)")
            if (index + 1) % every == 0 { lines += checkpoint() }
        }
        return (lines + ["quit"]).joined(separator: "\n") + "\n"
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
