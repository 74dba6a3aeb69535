import ArgumentParser
import Foundation
import ZapperCore

/// `zapper-bench lineup`: a provider-sized lineup (`/shapes/big.m3u`, written as
/// public lists are) beside the 8-channel demo: how long reading it takes
/// (in-process, and as zapper says at start), how soon the first picture
/// comes, what the lineup costs in resident memory, and key to screen in the
/// panel's channel list and in the full-screen guide at that size (the big lineup with a
/// guide of six hours for every channel). No peer column: mpv keeps no channel list or guide.
struct LineupBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lineup",
        abstract: "A 10,000-entry lineup beside the demo's 8: parse time, first picture, memory, the panel's list.")

    @Option(help: "Entries in the big lineup.")
    var entries = 10_000

    @Option(help: "Parses timed in-process for each lineup.")
    var parses = 10

    @OptionGroup var inputs: BenchInputs

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        Progress.say("starting zapper-origin")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"), channels: inputs.channelsPath, directory: directory)
        defer { origin.stop() }
        let demo = try HTTP.text(origin.baseURL + "/demo.m3u")
        // The big lineup is measured as it is (its memory is the lineup's), and then with a guide for every channel.
        let big = "/shapes/big.m3u?count=\(entries)"
        let lineups = [("demo", demo, demo), ("big", try HTTP.text(origin.baseURL + big), try HTTP.text(origin.baseURL + big + "&guide=1"))]
        var rows: [LineupFigures] = []
        for (name, text, withGuide) in lineups {
            var figures = LineupFigures(name: name, text: text, parses: parses)
            try figures.play(tools: tools, directory: directory)
            try figures.browseGuide(tools: tools, directory: directory, lineup: withGuide)
            rows.append(figures)
        }
        print(LineupFigures.report(rows))
    }
}

/// One lineup's figures.
struct LineupFigures {
    let name: String
    let text: String
    let entries: Int
    var channels = 0
    var parseMilliseconds: [Double] = []
    var zapperParseMilliseconds: Int?
    var firstFrame: Int?
    var residentBytes = 0
    var keys: KeyFigures?
    var guideKeys: KeyFigures?
    var guideProgrammes: Int?
    /// The most resident memory while browsing the guide.
    var guideResidentBytes = 0

    init(name: String, text: String, parses: Int) {
        self.name = name
        self.text = text
        entries = text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }.count
        for _ in 0..<max(1, parses) {
            let started = Monotonic.now
            let lineup = M3UPlusParser.parse(text, source: name)
            parseMilliseconds.append((Monotonic.now - started) * 1000)
            channels = lineup.channels.count
        }
    }

    /// zapper on channel 1 of the lineup: the first picture, 3 s of play (resident memory
    /// sampled then), then the panel opened and its list moved 20 rows, key by key.
    mutating func play(tools: Tools, directory: URL) throws {
        // Up opens the panel, three lefts reach its channel list, up enters the list at the channel playing.
        var script = "wait-event first-frame 30000\nwait 3000\npress KEY_UP\nwait 800\n"
            + "press KEY_LEFT\nwait 250\npress KEY_LEFT\nwait 250\npress KEY_LEFT\nwait 250\npress KEY_UP\nwait 250\n"
        for _ in 0..<20 { script += "press KEY_DOWN\nwait 250\n" }
        script += "press KEY_BACK\nwait 500\nquit\n"
        let (child, eventsURL) = try scriptedZapper(name: "zapper-lineup-\(name)", tools: tools, directory: directory, lineup: text,
                                                    script: script, arguments: ["--channel", "1", "--size", "1920x1080", "--trace-flips"])
        Progress.say("zapper with the \(name) lineup (\(entries) entries)")
        try child.run()
        defer { child.stop() }
        var sampled = false
        while child.isRunning {
            let events = (try? String(contentsOf: eventsURL, encoding: .utf8)) ?? ""
            if !sampled, let frame = Self.firstFrame(events), Monotonic.now - child.startedAt > Double(frame) / 1000 + 2.5 {
                residentBytes = ProcFS.memory(child.pid)?.resident ?? 0
                sampled = true
            }
            guard Monotonic.now - child.startedAt < 90 else { throw BenchError("zapper did not finish:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard child.process.terminationStatus == 0 else { throw BenchError("zapper failed:\n\(child.stderrTail())") }
        let events = try String(contentsOf: eventsURL, encoding: .utf8)
        firstFrame = Self.zap(events)
        keys = try? KeyFigures(events: events.split(separator: "\n").drop { !$0.contains("\"panel-opened\"") }.joined(separator: "\n"))
        if let range = child.standardError.range(of: "(parsed in "),
           let number = Int(child.standardError[range.upperBound...].prefix { $0.isNumber }) {
            zapperParseMilliseconds = number
        }
    }

    /// zapper on channel 1 once its guide is read: the guide opened, 20 rows down, 5
    /// programmes across and back, 5 pages, a typed number, closed; key to screen for each.
    mutating func browseGuide(tools: Tools, directory: URL, lineup: String) throws {
        var script = "wait-event guide-loaded 120000\nwait 2000\npress KEY_EPG\nwait 800\n"
        // Five programmes on and five back: each press moves the focus (past the last programme
        // the guide holds, a press changes nothing, and its "key to screen" would be the next picture's).
        for key in Array(repeating: "KEY_DOWN", count: 20) + Array(repeating: "KEY_RIGHT", count: 5) + Array(repeating: "KEY_LEFT", count: 5)
            + Array(repeating: "KEY_PAGEDOWN", count: 5) + ["KEY_1", "KEY_5", "KEY_0"] {
            script += "press \(key)\nwait 250\n"
        }
        script += "wait 1500\npress KEY_BACK\nwait 500\nquit\n"
        let (child, eventsURL) = try scriptedZapper(name: "zapper-guide-\(name)", tools: tools, directory: directory, lineup: lineup,
                                                    script: script, arguments: ["--channel", "1", "--size", "1920x1080", "--trace-flips"])
        Progress.say("zapper's guide with the \(name) lineup")
        try child.run()
        defer { child.stop() }
        while child.isRunning {
            guideResidentBytes = max(guideResidentBytes, ProcFS.memory(child.pid)?.resident ?? 0)
            guard Monotonic.now - child.startedAt < 180 else { throw BenchError("zapper did not finish:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard child.process.terminationStatus == 0 else { throw BenchError("zapper failed:\n\(child.stderrTail())") }
        let events = try String(contentsOf: eventsURL, encoding: .utf8)
        guideProgrammes = Self.lines(events).compactMap { if case let .guideLoaded(programmes, _) = $0.event { programmes } else { nil } }.last
        guideKeys = try? KeyFigures(events: events.split(separator: "\n").drop { !$0.contains("\"guide-opened\"") }.joined(separator: "\n"))
    }

    /// The log's events (a line zapper would not write is skipped).
    private static func lines(_ events: String) -> [LoggedEvent] {
        events.split(separator: "\n").compactMap { try? LoggedEvent(jsonLine: $0) }
    }

    /// The first picture's event: when it came (t_ms), and its zap time.
    private static func firstFrameEvent(_ events: String) -> (milliseconds: Int, zap: Int)? {
        lines(events).lazy.compactMap { if case let .firstFrame(_, zap, _, _, _) = $0.event { ($0.milliseconds, zap) } else { nil } }.first
    }

    static func firstFrame(_ events: String) -> Int? { firstFrameEvent(events)?.milliseconds }
    static func zap(_ events: String) -> Int? { firstFrameEvent(events)?.zap }

    static func report(_ rows: [LineupFigures]) -> String {
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func percentile(_ values: [Int], _ p: Double) -> Int {
            let sorted = values.sorted()
            return sorted.isEmpty ? -1 : sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        var lines = ["| lineup | entries | channels | parse p50 / min ms (in-process) | zapper says parsed in ms | first picture zap_ms | RSS playing MB | panel key → flip p50 / p95 / max ms | guide programmes | RSS with the guide MB | guide key → flip p50 / p95 / max ms |",
                     "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        func keys(_ figures: KeyFigures?) -> String {
            figures.map { "\(percentile($0.latencies, 0.5)) / \(percentile($0.latencies, 0.95)) / \($0.latencies.max() ?? -1)" } ?? "-"
        }
        for row in rows {
            lines.append("| \(row.name) | \(row.entries) | \(row.channels) | "
                + String(format: "%.1f / %.1f", median(row.parseMilliseconds), row.parseMilliseconds.min() ?? 0)
                + " | \(row.zapperParseMilliseconds.map(String.init) ?? "-") | \(row.firstFrame.map(String.init) ?? "-") | "
                + String(format: "%.1f", Double(row.residentBytes) / 1_048_576)
                + " | \(keys(row.keys)) | \(row.guideProgrammes.map(String.init) ?? "-") | "
                + String(format: "%.1f", Double(row.guideResidentBytes) / 1_048_576) + " | \(keys(row.guideKeys)) |")
        }
        if rows.count == 2, rows[1].channels > rows[0].channels {
            let perThousand = Double(rows[1].residentBytes - rows[0].residentBytes) / 1_048_576 / Double(rows[1].channels - rows[0].channels) * 1000
            lines += ["", String(format: "resident memory per 1,000 channels: %.2f MB (the big lineup's RSS less the demo's, over the extra channels)", perThousand)]
        }
        return lines.joined(separator: "\n")
    }
}
