import Foundation

/// ffmpeg decoding the target variant's media playlist to the null muxer:
/// the cost of demuxing and decoding alone. Paced with `-re` like playback;
/// then, unpaced, the CPU time to decode a minute of the same segments.
struct FFmpegRun {
    let setup: PlaybackSetup

    /// `ffmpeg -re -i MEDIA -f null -`: the window starts `warmup` seconds after
    /// `-progress` first reports a decoded frame.
    func paced() throws -> ToolResult {
        let length = Int(setup.warmup + setup.seconds + 30)
        let child = try ChildProcess(
            name: "ffmpeg", executable: try Tools.onPath("ffmpeg"),
            arguments: ["-hide_banner", "-nostats", "-loglevel", "error", "-progress", "pipe:1", "-stats_period", "0.05",
                        "-re", "-i", setup.target.url, "-t", String(length), "-f", "null", "-"],
            directory: setup.directory)
        Progress.say("ffmpeg: -re -i \(setup.target.url) -f null -")
        try child.run()
        let sampler = ProcessSampler(pid: child.pid)
        sampler.start()
        defer {
            sampler.stop()
            child.stop()
        }
        var progress = LogTail(url: child.stdoutURL)
        var decoding: Double?
        while decoding == nil {
            let frames = progress.newLines().compactMap { $0.hasPrefix("frame=") ? Int($0.dropFirst(6)) : nil }
            if frames.contains(where: { $0 > 0 }) { decoding = Monotonic.now }
            guard child.isRunning else { throw BenchError("ffmpeg exited before decoding:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("ffmpeg: no frame decoded in 30 s") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let firstReport = Int(((decoding! - child.startedAt) * 1000).rounded())
        let measurement = try measureWindow(child, sampler, from: decoding! + setup.warmup, seconds: setup.seconds)
        let notes = ["\(Tools.version(of: "ffmpeg", flag: "-version", words: 3, directory: setup.directory)) (its own hls demuxer on the \(setup.target.resolution) media playlist, video and audio decoded, nothing scaled): no first-frame column, it shows nothing; `-progress` reported its first decoded frame \(firstReport) ms after the spawn."]
        return ToolResult(tool: "ffmpeg -re … -f null (decode only)", firstFrameMilliseconds: nil,
                          measurement: measurement, played: setup.target.resolution, notes: notes)
    }

    /// Downloads the live window's segments of the target variant and decodes them,
    /// looped a whole number of times to cover at least `seconds` of video, as fast
    /// as ffmpeg can (`-benchmark`); the CPU time is scaled to `seconds` of video.
    /// (A finite loop count: the window may hold a discontinuity, and `-frames:v`
    /// with `-stream_loop -1` then never stopped.)
    func unpaced() throws -> String {
        let file = setup.directory.appendingPathComponent("window.ts")
        let segments = try HTTP.segments(media: setup.target.url)
        var bytes = Data()
        for segment in segments { bytes.append(try HTTP.data(segment.url)) }
        try bytes.write(to: file)
        let windowSeconds = segments.reduce(0) { $0 + $1.seconds }
        guard windowSeconds > 0 else { throw BenchError("ffmpeg unpaced: the media playlist has no durations") }
        let passes = Int((setup.seconds / windowSeconds).rounded(.up))
        let videoSeconds = Double(passes) * windowSeconds
        let child = try ChildProcess(
            name: "ffmpeg-unpaced", executable: try Tools.onPath("ffmpeg"),
            arguments: ["-hide_banner", "-nostats", "-benchmark", "-stream_loop", String(passes - 1), "-i", file.path,
                        "-f", "null", "-"],
            directory: setup.directory)
        Progress.say("ffmpeg: unpaced decode of \(Int(videoSeconds)) s of \(setup.target.resolution) (\(segments.count) live segments, \(passes) passes)")
        try child.run()
        guard child.waitForExit(seconds: 600) else {
            child.stop()
            throw BenchError("ffmpeg unpaced: still decoding after 600 s")
        }
        // "bench: utime=12.345s stime=0.456s rtime=6.789s" and "bench: maxrss=81234kB"
        var values: [String: Double] = [:]
        for line in child.standardError.split(separator: "\n") where line.hasPrefix("bench: ") {
            for field in line.dropFirst(7).split(separator: " ") {
                let pair = field.split(separator: "=")
                guard pair.count == 2 else { continue }
                let number = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "skB"))
                values[String(pair[0])] = Double(number)
            }
        }
        guard let user = values["utime"], let system = values["stime"], let real = values["rtime"] else {
            throw BenchError("ffmpeg unpaced: no -benchmark line:\n\(child.stderrTail())")
        }
        let cpu = (user + system) * setup.seconds / videoSeconds
        var line = "ffmpeg unpaced (`-benchmark -stream_loop \(passes - 1) -i <the \(segments.count) live \(setup.target.resolution) segments, \(Int(windowSeconds)) s> -f null -`, \(Int(videoSeconds)) s of video): "
        line += String(format: "%.1f CPU-seconds per %.0f s of video (%.1f %% of one core at real time), decoded %.1f× faster than real time",
                       cpu, setup.seconds, cpu / setup.seconds * 100, videoSeconds / max(real, 0.001))
        if let rss = values["maxrss"] { line += String(format: ", maxrss %.0f MB", rss / 1024) }
        return line + "."
    }
}
