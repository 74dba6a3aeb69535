import ArgumentParser
import Foundation
import ZapperCore
import ZapperSettings

/// `zapper-bench inputs`: every input from outside at the bound zapper allows it, and what
/// holding it costs: zapper's peak resident memory (VmHWM) with the input beside a run
/// without it, the extra as a multiple of the input's size (the rule: at most 2x), and how
/// long `state.json` at its bounds takes to read and to save. No peer column: mpv reads
/// none of these inputs.
struct InputsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inputs",
        abstract: "Each input from outside at its bound: zapper's peak memory beside the input's size; state read and save times.")

    @Option(help: "Reads and saves of state.json timed in-process.")
    var saves = 50

    @Option(help: "Entries in the largest lineup (100,000 is zapper's bound).")
    var lineupEntries = 100_000

    @Option(help: "Entries of the lineup whose guide is read (six hours of programmes each).")
    var guideEntries = 20_000

    @Flag(help: "Only time state.json's read and save.")
    var stateOnly = false

    @OptionGroup var inputs: BenchInputs

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let timing = try StateTiming(directory: directory.appendingPathComponent("timed-state"), runs: saves)
        if stateOnly { return print(InputRow.report([], timing: timing)) }
        Progress.say("starting zapper-origin")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"), channels: inputs.channelsPath, directory: directory)
        defer { origin.stop() }
        // The small inputs beside a radio channel: no pictures decoded, so the peak barely moves
        // between runs (a 1080p picture queue's few MB would hide them).
        let radio = try HTTP.text(origin.baseURL + "/broadcast.m3u")
        let station = 105
        let runner = InputRun(tools: tools, directory: directory)
        var rows: [InputRow] = []
        // Twice: how far two runs without any input differ is the table's noise.
        let baseline = try runner.peak(name: "baseline", lineup: radio, channel: station)
        let again = try runner.peak(name: "baseline-again", lineup: radio, channel: station)
        rows.append(InputRow(input: "none: the broadcast lineup, radio playing", bound: "", allowed: 0, size: 0, peak: baseline, baseline: baseline))
        rows.append(InputRow(input: "none, again", bound: "", allowed: 0, size: 0, peak: again, baseline: baseline))

        let stateDirectory = directory.appendingPathComponent("zapper-input-state-state")
        try StateStore(directory: stateDirectory).save(ZapperState.atItsBounds())
        rows.append(InputRow(input: "state.json, every collection at its cap", bound: "\(StateStore.maxBytes >> 20) MB file", allowed: StateStore.maxBytes,
                             size: fileSize(stateDirectory.appendingPathComponent(StateStore.fileName)),
                             peak: try runner.peak(name: "state", lineup: radio, channel: station), baseline: baseline))

        let config = HostileConfig.schedules(bytes: ConfigFile.maxBytes)
        let configURL = directory.appendingPathComponent("big.toml")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        rows.append(InputRow(input: "configuration: 10,000 [[schedule]] entries", bound: "\(ConfigFile.maxBytes >> 20) MB file", allowed: ConfigFile.maxBytes,
                             size: config.utf8.count,
                             peak: try runner.peak(name: "config", lineup: radio, channel: station, arguments: ["--config", configURL.path]),
                             baseline: baseline))
        rows.append(try runner.apiBodies(lineup: radio, channel: station, baseline: baseline))
        if let row = try runner.mqttMessages(lineup: radio, channel: station, baseline: baseline) { rows.append(row) }

        // The large ones beside 1080p playing, each with a baseline of its own.
        let demo = try HTTP.text(origin.baseURL + "/demo.m3u")
        let playing = try runner.peak(name: "demo", lineup: demo)
        let big = try HTTP.text(origin.baseURL + "/shapes/big.m3u?count=\(lineupEntries)")
        rows.append(InputRow(input: "lineup: \(lineupEntries) entries", bound: "\(LineupLimits.channels) channels, \(LineupLimits.bytes >> 20) MB",
                             allowed: LineupLimits.bytes, size: big.utf8.count, peak: try runner.peak(name: "lineup", lineup: big), baseline: playing,
                             baselineNote: "the demo lineup playing 1080p"))

        let guided = try HTTP.text(origin.baseURL + "/shapes/big.m3u?count=\(guideEntries)&guide=1")
        let guideSize = try HTTP.data(origin.baseURL + "/shapes/big-guide.xml?count=\(guideEntries)").count
        let guidedBaseline = try runner.peak(name: "guided-lineup", lineup: guided.replacingOccurrences(of: "x-tvg-url=", with: "x-unread="))
        rows.append(InputRow(input: "guide: six hours for \(guideEntries) channels", bound: "\(GuideLimits.documentBytes >> 20) MB of XML",
                             allowed: GuideLimits.documentBytes, size: guideSize, peak: try runner.peak(name: "guide", lineup: guided, until: "guide-loaded"),
                             baseline: guidedBaseline, baselineNote: "the same lineup unguided"))

        print(InputRow.report(rows, timing: timing))
    }

    private func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// One input's figures.
struct InputRow {
    var input: String
    var bound: String
    /// The bytes the bound allows (0: no input): the rule is at most twice this in peak memory.
    var allowed: Int
    /// The input's bytes in this run.
    var size: Int
    var peak: Int
    var baseline: Int
    var baselineNote = "no input"

    var extra: Int { max(0, peak - baseline) }

    static func report(_ rows: [InputRow], timing: StateTiming) -> String {
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        var lines = ["", "Inputs at their bounds: zapper's peak resident memory (VmHWM) beside a run without the input",
                     "(\(ProcFS.machine()), load \(ProcFS.loadAverage()))", "",
                     "| input | bound | input's size | peak RSS | peak without it | extra | extra ÷ input's size | within 2x the bound |",
                     "|---|---|---|---|---|---|---|---|"]
        for row in rows {
            let ratio = row.size > 0 ? String(format: "%.2f", Double(row.extra) / Double(row.size)) : "–"
            let within = row.allowed > 0 ? (row.extra <= 2 * row.allowed ? "yes" : "NO") + " (\(megabytes(2 * row.allowed)))" : "–"
            lines.append("| \(row.input) | \(row.bound.isEmpty ? "–" : row.bound) | \(row.size > 0 ? megabytes(row.size) : "–") | "
                + "\(megabytes(row.peak)) | \(megabytes(row.baseline)) (\(row.baselineNote)) | \(megabytes(row.extra)) | \(ratio) | \(within) |")
        }
        lines += ["", "state.json at its bounds (\(megabytes(timing.bytes))), in-process, \(timing.read.count) runs each (goal: under 50 ms):", "",
                  "| step | p50 | p95 | max |", "|---|---|---|---|",
                  timing.row("read (load)", timing.read), timing.row("… of which the JSON decode", timing.decode),
                  timing.row("save (encode, write, fsync, rename, fsync)", timing.save), timing.row("… of which the JSON encode", timing.encode)]
        return lines.joined(separator: "\n")
    }
}

/// `StateStore.load` and `save` of the largest state, timed.
struct StateTiming {
    var read: [Double] = []
    var save: [Double] = []
    var encode: [Double] = []
    var decode: [Double] = []
    var bytes = 0

    init(directory: URL, runs: Int) throws {
        Progress.say("timing state.json: \(runs) saves and reads")
        let store = try StateStore(directory: directory)
        let state = ZapperState.atItsBounds()
        for _ in 0..<max(1, runs) {
            var started = Monotonic.now
            try store.save(state)
            save.append((Monotonic.now - started) * 1000)
            started = Monotonic.now
            let loaded = store.load()
            read.append((Monotonic.now - started) * 1000)
            guard loaded.state == state else { throw BenchError("state.json read back differs: \(loaded.message ?? "")") }
            // Of which the JSON alone.
            started = Monotonic.now
            let data = try state.encoded()
            encode.append((Monotonic.now - started) * 1000)
            started = Monotonic.now
            _ = try ZapperState.decode(data)
            decode.append((Monotonic.now - started) * 1000)
        }
        bytes = ((try? FileManager.default.attributesOfItem(atPath: store.file.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    func row(_ name: String, _ values: [Double]) -> String {
        let sorted = values.sorted()
        func at(_ fraction: Double) -> String {
            String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
        }
        return "| \(name) | \(at(0.5)) | \(at(0.95)) | \(String(format: "%.1f ms", sorted.last ?? 0)) |"
    }
}

/// Inputs written as a hostile or overgrown source would.
enum HostileConfig {
    /// `[[schedule]]` entries (the box plays with the first 64), then comment lines up to `bytes`.
    static func schedules(bytes: Int) -> String {
        var text = "# zapper-bench inputs: a configuration at its size bound\n"
        for index in 0..<10_000 {
            text += "[[schedule]]\ndays = [\"daily\"]\nfrom = \"\(String(format: "%02d:%02d", index / 60 % 24, index % 60))\"\n"
                + "to = \"23:59\"\nvolume = \(index % 101)\n"
        }
        let line = "# " + String(repeating: "padding ", count: 12) + "\n"
        while text.utf8.count + line.utf8.count < bytes - 1024 { text += line }
        return text
    }
}
