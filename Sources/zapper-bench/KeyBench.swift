import ArgumentParser
import Foundation
import ZapperCore

/// `zapper-bench keys`: how soon a key changes the screen while the channel
/// loads it asks for hang — the input path must never wait on media. zapper
/// plays channel 1; every other channel answers only after a minute (an origin
/// `delay` fault), so each flip retargets a load that hangs and only the card
/// changes. A second run opens and closes the swipe-up panel over channel 1
/// playing: the heaviest overlay there is. A press is due when its script
/// `wait` ends, as a device's key is due when it reaches the player; the `key`
/// event's `waited_ms` says how long it waited for the frame loop, and
/// `--trace-flips` times each page flip.
/// No mpv column: mpv has no card to put up, and its on-screen display
/// cannot be timed from outside without a display.
struct KeyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Key to screen: how long a press waits for the page flip that shows it, while loads hang and with the panel.")

    @Option(help: "How many presses in each run.")
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

        let lineup = try HTTP.text(origin.baseURL + "/demo.m3u")
        // Flips at uneven gaps, so they fall anywhere within a vblank interval: 150-450 ms spread
        // by the golden ratio (the same gaps every run). Then the panel: up opens it, back closes
        // it, 300-600 ms apart (its animation takes 180 ms), over channel 1 playing.
        let flips = try presses(name: "zapper-keys", tools: tools, directory: directory, lineup: lineup, gaps: 150...450) {
            $0 % 2 == 0 ? "KEY_CHANNELUP" : "KEY_CHANNELDOWN"
        }
        let panel = try presses(name: "zapper-panel", tools: tools, directory: directory, lineup: lineup, gaps: 300...600) {
            $0 % 2 == 0 ? "KEY_UP" : "KEY_BACK"
        }
        print(KeyFigures.report(size: size, rows: [("flips, loads hanging", flips), ("swipe-up panel opened and closed", panel)],
                                loadBefore: loadBefore, loadAfter: ProcFS.loadAverage()))
    }

    /// One zapper run on channel 1 with `count` presses (`key(n)` names the n-th) at `gaps` ms apart.
    private func presses(name: String, tools: Tools, directory: URL, lineup: String, gaps: ClosedRange<Int>,
                         key: (Int) -> String) throws -> KeyFigures {
        var script = "wait-event first-frame 30000\nwait 2000\n"
        for index in 0..<count {
            let gap = gaps.lowerBound + Int((Double(index) * 0.618_034).truncatingRemainder(dividingBy: 1) * Double(gaps.count - 1))
            script += "wait \(gap)\npress \(key(index))\n"
        }
        script += "quit\n"
        let (child, eventsURL) = try scriptedZapper(
            name: name, tools: tools, directory: directory, lineup: lineup,
            script: script, arguments: ["--channel", "1", "--size", size, "--trace-flips"])
        Progress.say("\(name): \(count) presses \(gaps.lowerBound)-\(gaps.upperBound) ms apart, \(size) offscreen")
        try child.run()
        defer { child.stop() }
        guard child.waitForExit(seconds: Double(count * gaps.upperBound) / 1000 + 90), child.process.terminationStatus == 0 else {
            throw BenchError("zapper did not finish its key script:\n\(child.stderrTail())")
        }
        return try KeyFigures(events: String(contentsOf: eventsURL, encoding: .utf8))
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
            guard let logged = try? LoggedEvent(jsonLine: line) else { continue }
            let time = logged.milliseconds
            if case let .key(_, _, waited) = logged.event {
                pending.append(time - waited)
                waits.append(waited)
            } else if case let .flip(flip, _, _) = logged.event, flip >= 0 {
                flips.append(flip)
                latencies += pending.map { time - $0 }
                pending = []
            }
        }
        guard !latencies.isEmpty else { throw BenchError("no key reached the screen (no key or flip events)") }
        period = Double(zip(flips, flips.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.min() ?? 16_667) / 1000
    }

    static func report(size: String, rows: [(String, KeyFigures)], loadBefore: String, loadAfter: String) -> String {
        func percentile(_ values: [Int], _ p: Double) -> Int {
            let sorted = values.sorted()
            return sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        var lines = ["| key → page flip showing it (zapper, \(size) offscreen) | n | p50 ms | p95 ms | max ms | at the next vblank | waited for the loop p50 / max ms |",
                     "|---|---:|---:|---:|---:|---:|---:|"]
        for (label, figures) in rows {
            let latencies = figures.latencies
            let nextVBlank = latencies.filter { Double($0) <= figures.period + 1 }.count
            lines.append("| \(label) | \(latencies.count) | \(percentile(latencies, 0.5)) | \(percentile(latencies, 0.95)) | \(latencies.max()!) "
                         + "| \(nextVBlank * 100 / latencies.count)% | \(percentile(figures.waits, 0.5)) / \(figures.waits.max() ?? 0) |")
        }
        let periods = rows.map { String(format: "%.1f", $0.1.period) }.joined(separator: " and ")
        lines += ["", "vblank period \(periods) ms; waited: from the press being due to the frame loop taking it (the key event's waited_ms).",
                  "load average before: \(loadBefore); after: \(loadAfter)"]
        return lines.joined(separator: "\n")
    }
}
