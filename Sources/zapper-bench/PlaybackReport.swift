import Foundation

/// The printed result of `zapper-bench playback`: a Markdown table and notes,
/// ready to paste into Sources/zapper-bench/README.md.
struct PlaybackReport {
    var date: Date
    var setup: PlaybackSetup
    var results: [ToolResult]
    var unpaced: String?
    var loadBefore: String
    var loadAfter: String

    var text: String {
        var lines: [String] = []
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        lines.append("zapper-bench playback, \(formatter.string(from: date)): channel \(setup.channel) (\(setup.channelName)), \(setup.target.resolution) at \(setup.target.frameRate.map { String(format: "%.0f", $0) } ?? "?") fps, \(Int(setup.seconds)) s per tool, one tool at a time.")
        lines.append("Machine: \(ProcFS.machine()), no GPU. Load average before: \(loadBefore); after: \(loadAfter).")
        lines.append("")
        lines.append("| tool | cold start to first frame | CPU, % of one core (\(Int(setup.seconds)) s avg) | RSS steady (median after 10 s) | RSS peak (VmHWM) | played in the window |")
        lines.append("|---|---:|---:|---:|---:|---|")
        for result in results {
            let start = result.firstFrameMilliseconds.map { "\($0) ms" } ?? "—"
            let cpu = result.measurement.map { String(format: "%.1f %%", $0.cpuPercent) } ?? "—"
            let steady = result.measurement?.steadyResidentBytes.map(Self.megabytes) ?? "—"
            let peak = result.measurement.map { Self.megabytes($0.highWaterBytes) } ?? "—"
            lines.append("| \(result.tool) | \(start) | \(cpu) | \(steady) | \(peak) | \(result.played) |")
        }
        lines.append("")
        lines.append("- CPU is (utime + stime) of the process and any children, from /proc/PID/stat, over the window's wall time; RSS is VmRSS from /proc/PID/status, sampled every 500 ms; 100 % is one core.")
        lines.append("- zapper scales every frame to 1920x1080 XRGB on its offscreen compositor, presents at 60 Hz, fetches with its own HLS client and plays sound into an ALSA `null` PCM; mpv and ffmpeg here decode video and audio but neither scale nor compose.")
        for result in results { lines += result.notes.map { "- \($0)" } }
        if let unpaced { lines.append("- \(unpaced)") }
        lines.append("- The machine is shared with other work (builds): compare the rows of one run, not runs of different days.")
        return lines.joined(separator: "\n")
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.0f MB", Double(bytes) / 1_048_576)
    }
}
