import Foundation
import ZapperCore

/// zapper on the offscreen display at 1920x1080, sound into an ALSA `null` PCM.
/// Its HLS client starts on the lowest variant and steps up: the measured
/// window starts once it decodes the target variant, and the table says which
/// variants its segments came from during the window.
struct ZapperRun {
    let setup: PlaybackSetup

    func run() throws -> ToolResult {
        let (child, eventsURL) = try setup.zapper(name: "zapper", size: "1920x1080")
        Progress.say("zapper: channel \(setup.channel), offscreen 1920x1080")
        try child.run()
        let sampler = ProcessSampler(pid: child.pid)
        sampler.start()
        defer {
            sampler.stop()
            child.stop()
        }

        var watch = Watch(events: LogTail(url: eventsURL), errors: LogTail(url: child.stderrURL))
        while watch.firstFrameSeen == nil {
            watch.poll()
            guard child.isRunning else { throw BenchError("zapper exited before its first frame:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("zapper: no first frame in 30 s:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let firstFrame = watch.firstFrameSeen!
        let coldStart = Int(((firstFrame - child.startedAt) * 1000).rounded())
        Progress.say("zapper: first frame \(coldStart) ms after the spawn")

        // Wait for the step up to the target variant (or give up after `settle` seconds and say so).
        while watch.reached(setup.target.index) == nil, Monotonic.now < firstFrame + setup.settle {
            watch.poll()
            guard child.isRunning else { throw BenchError("zapper exited:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let reached = watch.reached(setup.target.index)
        if let reached {
            Progress.say("zapper: decoding \(setup.target.resolution) \(Int(((reached - firstFrame) * 1000).rounded())) ms after its first frame")
        } else {
            Progress.say("zapper: still not at \(setup.target.resolution) \(Int(setup.settle)) s after its first frame; measuring anyway")
        }
        let measurement = try measureWindow(child, sampler, from: (reached ?? Monotonic.now) + setup.warmup,
                                            seconds: setup.seconds, poll: { watch.poll() })
        // Which variants the segments decoded in the window came from.
        let inWindow = watch.segments.filter { $0.time >= measurement.startTime && $0.time <= measurement.endTime }
        var counts: [Int: Int] = [:]
        for segment in inWindow { counts[segment.variant, default: 0] += 1 }
        let played = counts.sorted { $0.key > $1.key }
            .map { "\(setup.variant($0.key)): \($0.value) of \(inWindow.count) segments" }
            .joined(separator: ", ")

        var notes: [String] = []
        let firstVariant = watch.segments.first.map { setup.variant($0.variant) } ?? "?"
        var own = "zapper's own first-frame event"
        if let first = watch.firstFrameEvent, case let .firstFrame(_, zap, _, _, _) = first.event {
            own += ": t_ms \(first.milliseconds) (from its event log opening), zap_ms \(zap) (from the tune)"
        }
        notes.append("zapper: cold start is spawn → `first-frame` in its event log, seen by the bench polling the file every 5 ms; \(own). The first frame is \(firstVariant): its HLS client starts on the lowest variant.")
        if let reached {
            notes.append("zapper: stepped up to \(setup.target.resolution) (first segment of it decoding) \(String(format: "%.1f", reached - firstFrame)) s after its first frame; the window starts \(Int(setup.warmup)) s later.")
        } else {
            notes.append("zapper: did NOT reach \(setup.target.resolution) within \(Int(setup.settle)) s of its first frame on this machine; the row measures what it played.")
        }
        notes.append("zapper: as built it also keeps the channels either side warm (their live playlists followed, the head of each new segment fetched with a Range request up to its first key frame, within 500 kbit/s each; the key frame is decoded only at a flip to it); that work is in its row.")
        if !watch.failures.isEmpty {
            notes.append("zapper: \(watch.failures.count) load-failed event(s): \(watch.failures.prefix(3).joined(separator: "; "))")
        }
        return ToolResult(tool: "zapper", firstFrameMilliseconds: coldStart, measurement: measurement,
                          played: played.isEmpty ? "no segment decoded in the window" : played, notes: notes)
    }

    /// Follows zapper's event log and its stderr timeline lines.
    struct Watch {
        var events: LogTail
        var errors: LogTail
        var firstFrameSeen: Double?
        var firstFrameEvent: LoggedEvent?
        var segments: [(time: Double, variant: Int)] = []
        var failures: [String] = []

        mutating func poll() {
            let now = Monotonic.now
            for line in events.newLines() {
                guard let logged = try? LoggedEvent(jsonLine: line) else { continue }
                switch logged.event {
                case .firstFrame where firstFrameSeen == nil:
                    firstFrameSeen = now
                    firstFrameEvent = logged
                case let .loadFailed(_, failure):
                    failures.append(failure.detail)
                default: break
                }
            }
            // "timeline: segment 897622039 disc 89762203 variant 0 first 1.4 offset …"
            for line in errors.newLines() where line.hasPrefix("timeline: ") {
                let words = line.split(separator: " ")
                if let at = words.firstIndex(of: "variant"), at + 1 < words.count, let variant = Int(words[at + 1]) {
                    segments.append((now, variant))
                }
            }
        }

        func reached(_ variant: Int) -> Double? {
            segments.first { $0.variant == variant }?.time
        }
    }
}

extension PlaybackSetup {
    /// zapper on the offscreen display at `size` playing the bench's channel from the
    /// origin's lineup, sound into ALSA's `null` PCM, its event log in the run's folder;
    /// created, not started. Its script keeps it on past any window (the bench stops it;
    /// the script's quit is a safety net); the timeline lines on its stderr name the
    /// variant of every segment decoded.
    func zapper(name: String, size: String, extra: [String] = []) throws -> (ChildProcess, events: URL) {
        let longest = Int((10 + settle + warmup + seconds + 30) * 1000)
        return try scriptedZapper(
            name: name, tools: tools, directory: directory, lineup: try HTTP.text(origin.baseURL + "/demo.m3u"),
            script: "wait-event first-frame 30000\nwait \(longest)\nquit\n",
            arguments: ["--channel", String(channel), "--size", size, "--audio-device", "default"] + extra,
            environment: ["ZAPPER_DEBUG_TIMELINE": "1"])
    }
}
