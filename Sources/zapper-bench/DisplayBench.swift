import ArgumentParser
import Foundation

/// `zapper-bench display`: CPU per displayed frame of the software path (libswscale to
/// XRGB, overlay blended on top) on the host's offscreen display at each size, beside mpv
/// doing the same scale; and the page-flip intervals of a real KMS run (an event log
/// written with `--trace-flips`, e.g. by image/run-display-bench in QEMU).
struct DisplayBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract: "CPU per displayed frame of the software compositor at 1280x720 and 1920x1080; page-flip jitter of a KMS run.")

    @Option(help: "The demo channel to play.")
    var channel = 2

    @Option(help: "Length of each measured window, in seconds.")
    var seconds = 30.0

    @Option(help: "Seconds between playing the largest variant and the start of the window.")
    var warmup = 2.0

    @Option(help: "Seconds zapper may take after its first frame to step up to the largest variant.")
    var settle = 20.0

    @Option(name: .customLong("size"), help: "Display sizes to measure (repeatable).")
    var sizes: [String] = ["1280x720", "1920x1080"]

    @OptionGroup var inputs: BenchInputs

    @Option(help: "An event log of a KMS run with --trace-flips: report its page-flip intervals (repeatable; NAME=PATH to label it).")
    var flips: [String] = []

    @Option(help: "The display's refresh rate, for counting vblanks in --flips logs.")
    var refresh = 60.0

    @Flag(help: "Skip the mpv rows.")
    var skipMPV = false

    @Flag(help: "Only report the --flips logs (no host runs).")
    var flipsOnly = false

    @Flag(help: "Keep the run's folder and print where it is.")
    var keep = false

    func validate() throws {
        for size in sizes {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 % 2 == 0 }) else {
                throw ValidationError("--size \(size): expected WIDTHxHEIGHT with even numbers")
            }
        }
        guard seconds >= 1 else { throw ValidationError("--seconds must be 1 or more") }
        if flipsOnly && flips.isEmpty { throw ValidationError("--flips-only needs at least one --flips log") }
    }

    func run() throws {
        let date = Date()
        var results: [DisplayResult] = []
        var setupText = ""
        let loadBefore = ProcFS.loadAverage()
        if !flipsOnly {
            let tools = inputs.tools
            let directory = try inputs.scratchFolder()
            defer {
                if keep { Progress.say("kept \(directory.path)") } else { try? FileManager.default.removeItem(at: directory) }
            }
            Progress.say("starting zapper-origin")
            let origin = try OriginServer(binary: try tools.product("zapper-origin"),
                                          channels: inputs.channelsPath, directory: directory)
            defer { origin.stop() }
            let masterURL = "\(origin.baseURL)/ch/\(channel)/master.m3u8"
            let variants = try HTTP.variants(master: masterURL)
            let target = variants.max { $0.width * $0.height < $1.width * $1.height }!
            let lineup = try HTTP.text(origin.baseURL + "/demo.m3u")
            let setup = PlaybackSetup(tools: tools, origin: origin, channel: channel,
                                      channelName: PlaybackBench.name(of: channel, in: lineup), masterURL: masterURL,
                                      variants: variants, target: target, seconds: seconds, warmup: warmup,
                                      settle: settle, directory: directory)
            setupText = "channel \(channel) (\(setup.channelName)), video \(target.resolution) at \(target.frameRate.map { String(format: "%.0f", $0) } ?? "?") fps"
            for size in sizes {
                results.append(try DisplayZapperRun(setup: setup, size: size).run())
                if !skipMPV { results.append(try DisplayMPVRun(setup: setup, size: size).run()) }
            }
        }
        var logs: [(name: String, flips: [FlipEvent])] = []
        for entry in flips {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let (name, path) = parts.count == 2 ? (parts[0], parts[1]) : (URL(fileURLWithPath: entry).lastPathComponent, entry)
            logs.append((name, try FlipEvent.read(path)))
        }
        print(report(date: date, setupText: setupText, results: results, logs: logs,
                     load: (loadBefore, ProcFS.loadAverage())))
    }

    func report(date: Date, setupText: String, results: [DisplayResult], logs: [(name: String, flips: [FlipEvent])],
                load: (String, String)) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        var lines = ["zapper-bench display, \(formatter.string(from: date)). Machine: \(ProcFS.machine()), no GPU."]
        if !results.isEmpty {
            lines.append("Software path on the host: \(setupText), \(Int(seconds)) s per row, one process at a time. Load average before: \(load.0); after: \(load.1).")
            lines.append("")
            lines.append("| tool | screen | video played | frames shown/s | CPU, % of one core | CPU ms per frame shown | compositor ms per frame p50 / p95 |")
            lines.append("|---|---|---|---:|---:|---:|---:|")
            for r in results {
                let perFrame = r.cpuMillisecondsPerFrame.map { String(format: "%.1f", $0) } ?? "—"
                let compose = r.compose.map { String(format: "%.1f / %.1f", $0.p50Milliseconds, $0.p95Milliseconds) } ?? "—"
                lines.append("| \(r.tool) | \(r.size) | \(r.played) | \(String(format: "%.1f", r.framesPerSecond)) | \(String(format: "%.1f %%", r.cpuPercent)) | \(perFrame) | \(compose) |")
            }
            lines.append("")
            lines.append("- CPU per frame shown is the whole process's CPU time (utime + stime of all threads: HLS, decoding, sound, compositing) over the window divided by the frames presented in it (zapper: its `flip` events; mpv: its filter chain's frame rate over the window less its dropped frames).")
            lines.append("- Compositor ms per frame is zapper's own measure in each `flip` event: scale_us (libswscale, the decoded picture to XRGB at the screen size, bilinear) + compose_us (overlay drawn, picture and overlay blended into the display's buffer, flip queued).")
            lines.append("- mpv: the same scale and pixel format through its lavfi filter, output discarded (--vo=null --ao=null); no overlay, no flips.")
        }
        for log in logs {
            lines.append("")
            guard let intervals = FlipIntervals(log.flips, refreshHz: refresh) else {
                lines.append("\(log.name): fewer than 3 page flips with timestamps in the log.")
                continue
            }
            let cost = ComposeCost(log.flips)
            lines.append("Page flips of \(log.name): \(intervals.count + 1) flips, \(String(format: "%.1f", Double(intervals.count) * intervals.meanMilliseconds / 1000)) s.")
            lines.append("")
            lines.append("| interval mean | stddev | p50 | p99 | max | usual vblanks per frame (\(Int(refresh)) Hz) | missed vblanks | off the vblank grid | flips not completed in 100 ms | compositor ms p50 / p95 |")
            lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            lines.append(String(format: "| %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %d | %d | %d of %d | %d | ",
                                intervals.meanMilliseconds, intervals.stddevMilliseconds, intervals.p50Milliseconds,
                                intervals.p99Milliseconds, intervals.maxMilliseconds, intervals.usualVblanks,
                                intervals.missedVblanks, intervals.offGrid, intervals.count, intervals.timeouts)
                         + (cost.map { String(format: "%.1f / %.1f |", $0.p50Milliseconds, $0.p95Milliseconds) } ?? "— |"))
            lines.append("")
            lines.append("- From the `flip_us` page-flip timestamps (the kernel's, CLOCK_MONOTONIC) of consecutive presented frames. Missed vblanks: intervals longer than the usual count of vblanks, summed (a frame shown late).")
        }
        lines.append("- The machine is shared with other work (builds): compare the rows of one run.")
        return lines.joined(separator: "\n")
    }
}
