import ArgumentParser
import Foundation
import ZapperCore

/// `zapper-bench deinterlace`: a 1080i25 broadcast channel (raw MPEG-TS) for a minute in
/// zapper (deinterlaced at field rate: 50 pictures a second, each scaled to the screen and
/// presented), beside `ffmpeg -vf bwdif=send_field` decode-only and mpv `--deinterlace=yes`
/// (decoding and deinterlacing, no output), one after the other against one origin.
struct DeinterlaceBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deinterlace",
        abstract: "CPU %, RSS and pictures presented playing 1080i25 deinterlaced: zapper beside ffmpeg -vf bwdif and mpv --deinterlace=yes.")

    @Option(help: "The broadcast channel to play (channels.json's `broadcast`; 101 is 1080i25).")
    var channel = 101

    @Option(help: "Length of each measured window, in seconds.")
    var seconds = 60.0

    @Option(help: "Seconds between a tool's first picture and the start of its window.")
    var warmup = 5.0

    @OptionGroup var inputs: BenchInputs

    @Option(help: "Run only these tools (zapper, ffmpeg, mpv; repeatable). Default: all three.")
    var only: [String] = []

    func validate() throws {
        for name in only where !["zapper", "mpv", "ffmpeg"].contains(name) {
            throw ValidationError("--only \(name): expected zapper, mpv or ffmpeg")
        }
        guard seconds >= 1, warmup >= 0 else { throw ValidationError("--seconds must be 1 or more, --warmup 0 or more") }
    }

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let date = Date()
        let loadBefore = ProcFS.loadAverage()
        Progress.say("starting zapper-origin (a cold encode cache takes a few minutes)")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"), channels: inputs.channelsPath, directory: directory)
        defer { origin.stop() }
        let url = "\(origin.baseURL)/broadcast/\(channel).ts"
        let lineup = try HTTP.text(origin.baseURL + "/broadcast.m3u")
        guard lineup.contains(url) else { throw ValidationError("--channel \(channel): not in the origin's broadcast lineup") }
        let chosen = only.isEmpty ? ["zapper", "ffmpeg", "mpv"] : only
        var rows: [(tool: String, measurement: WindowMeasurement, pictures: String)] = []
        if chosen.contains("zapper") { rows.append(try zapper(url: url, lineup: lineup, tools: tools, directory: directory)) }
        if chosen.contains("ffmpeg") {
            // bwdif, as zapper deinterlaces, and yadif, the other filter a slow box might take instead.
            for filter in ["bwdif", "yadif"] {
                let arguments = ["-hide_banner", "-nostats", "-loglevel", "error", "-re", "-i", url, "-t", String(Int(warmup + seconds + 20)),
                                 "-vf", "\(filter)=mode=send_field:parity=auto:deint=interlaced", "-f", "null", "-"]
                rows.append(try peer("ffmpeg -vf \(filter) (decode only)", executable: try Tools.onPath("ffmpeg"), arguments: arguments, directory: directory))
            }
        }
        if chosen.contains("mpv") {
            let arguments = ["--no-config", "--vo=null", "--ao=null", "--really-quiet", "--deinterlace=yes",
                             "--length=\(Int(warmup + seconds + 20))", url]
            rows.append(try peer("mpv --deinterlace=yes --vo=null", executable: try Tools.onPath("mpv"), arguments: arguments, directory: directory))
        }
        print(report(date: date, rows: rows, loadBefore: loadBefore, loadAfter: ProcFS.loadAverage()))
    }

    /// zapper on the offscreen display at 1920x1080 with `--trace-frames`: the pictures presented
    /// in the window, and how many of the field rate's were not.
    private func zapper(url: String, lineup: String, tools: Tools, directory: URL) throws -> (tool: String, measurement: WindowMeasurement, pictures: String) {
        let longest = Int((warmup + seconds + 40) * 1000)
        let (child, eventsURL) = try scriptedZapper(
            name: "zapper", tools: tools, directory: directory, lineup: lineup,
            script: "wait-event first-frame 30000\nwait \(longest)\nquit\n",
            arguments: ["--channel", String(channel), "--size", "1920x1080", "--audio-device", "default", "--trace-frames"])
        Progress.say("zapper: channel \(channel), offscreen 1920x1080, deinterlacing")
        return try child.runSampled { sampler in try measureZapper(child, sampler, eventsURL: eventsURL) }
    }

    private func measureZapper(_ child: ChildProcess, _ sampler: ProcessSampler, eventsURL: URL) throws -> (tool: String, measurement: WindowMeasurement, pictures: String) {
        var events = LogTail(url: eventsURL)
        var presented: [(time: Double, pts: Int)] = []
        var firstFrame: Double?
        func poll() {
            for line in events.newLines() {
                guard let logged = try? LoggedEvent(jsonLine: line) else { continue }
                if logged.event.name == .firstFrame, firstFrame == nil { firstFrame = Monotonic.now }
                if case let .frame(pts, _, _) = logged.event { presented.append((Monotonic.now, pts)) }
            }
        }
        while firstFrame == nil {
            poll()
            guard child.isRunning else { throw BenchError("zapper exited before its first frame:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("zapper: no first frame in 30 s:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let measurement = try measureWindow(child, sampler, from: firstFrame! + warmup, seconds: seconds, poll: poll)
        let inWindow = presented.filter { $0.time >= measurement.startTime && $0.time <= measurement.endTime }.map(\.pts)
        // The pictures due in the window are the field times between its first and last presented one.
        let span = Double((inWindow.max() ?? 0) - (inWindow.min() ?? 0)) / 1000
        let due = Int((span * 50).rounded()) + 1
        let slower = child.stderrTail().contains("one picture a frame") ? "; turned to frame rate (too slow here)" : ""
        return ("zapper (deinterlaced, scaled to 1080p, presented)", measurement,
                "\(inWindow.count) of \(due) pictures at field rate (\(max(0, due - inWindow.count)) not presented)\(slower)")
    }

    /// A peer that decodes and deinterlaces: its window starts `warmup` after the spawn plus two seconds.
    private func peer(_ tool: String, executable: URL, arguments: [String], directory: URL) throws -> (tool: String, measurement: WindowMeasurement, pictures: String) {
        let child = try ChildProcess(name: tool, executable: executable, arguments: arguments, directory: directory)
        Progress.say("\(tool): \(arguments.suffix(4).joined(separator: " "))")
        return try child.runSampled { sampler in
            (tool, try measureWindow(child, sampler, from: child.startedAt + 2 + warmup, seconds: seconds), "—")
        }
    }

    private func report(date: Date, rows: [(tool: String, measurement: WindowMeasurement, pictures: String)],
                        loadBefore: String, loadAfter: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        var lines = ["zapper-bench deinterlace, \(formatter.string(from: date)): broadcast channel \(channel) (1080i25 H.264, raw MPEG-TS), \(Int(seconds)) s per tool, one tool at a time.",
                     "Machine: \(ProcFS.machine()), no GPU. Load average before: \(loadBefore); after: \(loadAfter).", "",
                     "| tool | CPU, % of one core (\(Int(seconds)) s avg) | RSS steady | RSS peak | pictures |", "|---|---:|---:|---:|---|"]
        for row in rows {
            lines.append("| \(row.tool) | \(String(format: "%.1f %%", row.measurement.cpuPercent)) | "
                + "\(row.measurement.steadyResidentBytes.map(PlaybackReport.megabytes) ?? "—") | \(PlaybackReport.megabytes(row.measurement.highWaterBytes)) | \(row.pictures) |")
        }
        if let zapper = rows.first(where: { $0.tool.hasPrefix("zapper") }), let ffmpeg = rows.first(where: { $0.tool.hasPrefix("ffmpeg -vf bwdif") }) {
            lines.append("")
            lines.append(String(format: "zapper's CPU is %.2fx ffmpeg's (decoding and bwdif alone; zapper also scales 50 pictures a second to 1920x1080 and presents them).",
                                zapper.measurement.cpuPercent / max(ffmpeg.measurement.cpuPercent, 0.1)))
        }
        lines.append("- zapper, ffmpeg's first row and mpv use libavfilter's bwdif at field rate (mpv picks bwdif for --deinterlace=yes in software); the yadif row is the other filter's cost beside it, measured rather than assumed. CPU is (utime + stime) from /proc over the window's wall time; 100 % is one core.")
        return lines.joined(separator: "\n")
    }
}
