import ArgumentParser
import Foundation

/// `zapper-bench keys`: how soon a key changes the screen while the channel
/// loads it asks for hang — the input path must never wait on media. zapper
/// plays channel 1; every other channel answers only after a minute (an origin
/// `delay` fault), so each press retargets a load that hangs and only the card
/// changes. A press is due when its script `wait` ends, as a device's key is
/// due when it reaches the player; the `key` event's `waited_ms` says how long
/// it waited for the frame loop, and `--trace-flips` times each page flip.
/// No mpv column: mpv has no card to put up, and its on-screen display
/// cannot be timed from outside without a display.
struct KeyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Key to screen: how long a press waits for the page flip that shows it, while loads hang.")

    @Option(help: "How many presses.")
    var count = 200

    @Option(help: "Picture size of the offscreen display.")
    var size = "1920x1080"

    @OptionGroup var inputs: BenchInputs

    func validate() throws {
        guard count >= 10 else { throw ValidationError("--count must be 10 or more") }
    }

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loadBefore = ProcFS.loadAverage()
        let hanging = (2...8).flatMap { ["--fault", "\($0):delay=60000"] }
        Progress.say("starting zapper-origin (channels 2-8 answer after a minute)")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"),
                                      channels: inputs.channelsPath,
                                      directory: directory, extra: hanging)
        defer { origin.stop() }

        // Presses at uneven gaps, so they fall anywhere within a vblank interval: 150-450 ms
        // spread by the golden ratio (the same gaps every run).
        var script = "wait-event first-frame 30000\nwait 2000\n"
        for index in 0..<count {
            let gap = 150 + Int((Double(index) * 0.618_034).truncatingRemainder(dividingBy: 1) * 300)
            script += "wait \(gap)\npress \(index % 2 == 0 ? "KEY_CHANNELUP" : "KEY_CHANNELDOWN")\n"
        }
        script += "quit\n"
        let (child, eventsURL) = try scriptedZapper(
            name: "zapper-keys", tools: tools, directory: directory, lineup: try HTTP.text(origin.baseURL + "/demo.m3u"),
            script: script, arguments: ["--channel", "1", "--size", size, "--trace-flips"])
        Progress.say("zapper: \(count) presses 150-450 ms apart, \(size) offscreen")
        try child.run()
        defer { child.stop() }
        guard child.waitForExit(seconds: Double(count) * 0.5 + 90), child.process.terminationStatus == 0 else {
            throw BenchError("zapper did not finish its key script:\n\(child.stderrTail())")
        }
        let figures = try KeyFigures(events: String(contentsOf: eventsURL, encoding: .utf8))
        print(figures.report(size: size, loadBefore: loadBefore, loadAfter: ProcFS.loadAverage()))
    }
}

/// Each press's time to the first page flip after it was handled, from the event log.
struct KeyFigures {
    var latencies: [Int] = []
    var waits: [Int] = []
    var period: Double = 0

    init(events: String) throws {
        var pending: [Int] = []  // arrival times of presses not yet on screen
        var flips: [Int] = []    // flip_us
        for line in events.split(separator: "\n") {
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = event["event"] as? String, let time = event["t_ms"] as? Int else { continue }
            if name == "key", let waited = event["waited_ms"] as? Int {
                pending.append(time - waited)
                waits.append(waited)
            } else if name == "flip", let flip = event["flip_us"] as? Int, flip >= 0 {
                flips.append(flip)
                latencies += pending.map { time - $0 }
                pending = []
            }
        }
        guard !latencies.isEmpty else { throw BenchError("no key reached the screen (no key or flip events)") }
        period = Double(zip(flips, flips.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.min() ?? 16_667) / 1000
    }

    func report(size: String, loadBefore: String, loadAfter: String) -> String {
        func percentile(_ values: [Int], _ p: Double) -> Int {
            let sorted = values.sorted()
            return sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        let nextVBlank = latencies.filter { Double($0) <= period + 1 }.count
        return [
            "| key → page flip showing it | n | p50 ms | p95 ms | max ms | at the next vblank |",
            "|---|---:|---:|---:|---:|---:|",
            "| zapper, \(size) offscreen, loads hanging | \(latencies.count) | \(percentile(latencies, 0.5)) | \(percentile(latencies, 0.95)) | \(latencies.max()!) | \(nextVBlank * 100 / latencies.count)% |",
            "",
            String(format: "vblank period %.1f ms; a press waited for the frame loop p50 %d ms, max %d ms (the key event's waited_ms).",
                   period, percentile(waits, 0.5), waits.max() ?? 0),
            "load average before: \(loadBefore); after: \(loadAfter)",
        ].joined(separator: "\n")
    }
}
