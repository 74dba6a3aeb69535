import Foundation
import ZapperCore

/// What a software-path run measured: CPU over the window and the frames presented in it.
struct DisplayResult {
    var tool: String
    var size: String
    var played: String
    var seconds: Double
    var cpuSeconds: Double
    var frames: Int
    /// The compositor's own cost per frame (zapper only: its flip events).
    var compose: ComposeCost?
    var cpuPercent: Double { seconds > 0 ? cpuSeconds / seconds * 100 : 0 }
    var cpuMillisecondsPerFrame: Double? { frames > 0 ? cpuSeconds * 1000 / Double(frames) : nil }
    var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}

/// zapper on the offscreen display at one size with `--trace-flips`: the software path
/// (libswscale to XRGB at the screen's size, the overlay blended on top, a flip at the
/// next 60 Hz tick), sound into an ALSA `null` PCM.
struct DisplayZapperRun {
    let setup: PlaybackSetup
    let size: String

    func run() throws -> DisplayResult {
        let tag = size.replacingOccurrences(of: "x", with: "-")
        let (child, eventsURL) = try setup.zapper(name: "zapper-\(tag)", size: size, extra: ["--trace-flips"])
        Progress.say("zapper: channel \(setup.channel), offscreen \(size), --trace-flips")
        try child.run()
        let sampler = ProcessSampler(pid: child.pid)
        defer { child.stop() }

        var watch = Watch(events: LogTail(url: eventsURL), errors: LogTail(url: child.stderrURL))
        while watch.firstFrame == nil {
            watch.poll()
            guard child.isRunning else { throw BenchError("zapper exited before its first frame:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("zapper: no first frame in 30 s:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        while watch.reached(setup.target.index) == nil, Monotonic.now < watch.firstFrame! + setup.settle {
            watch.poll()
            guard child.isRunning else { throw BenchError("zapper exited:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let reached = watch.reached(setup.target.index) != nil
        let start = Monotonic.now + setup.warmup
        while Monotonic.now < start { watch.poll(); Thread.sleep(forTimeInterval: 0.02) }
        guard let first = sampler.sampleNow() else { throw BenchError("zapper exited before the window") }
        watch.poll()
        let firstFlip = watch.flips.count
        Progress.say("zapper \(size): measuring \(Int(setup.seconds)) s")
        while Monotonic.now < first.time + setup.seconds {
            watch.poll()
            guard child.isRunning else { throw BenchError("zapper exited during the window:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let last = sampler.sampleNow() else { throw BenchError("zapper exited at the end of the window") }
        watch.poll()
        let flips = Array(watch.flips[firstFlip...])
        let played = reached ? setup.target.resolution : "not yet \(setup.target.resolution) (still stepping up)"
        return DisplayResult(tool: "zapper (offscreen, software compositor)", size: size, played: played,
                             seconds: last.time - first.time, cpuSeconds: last.cpuSeconds - first.cpuSeconds,
                             frames: flips.count, compose: ComposeCost(flips))
    }

    /// Follows the event log (first frame, flips) and the timeline lines (variants).
    struct Watch {
        var events: LogTail
        var errors: LogTail
        var firstFrame: Double?
        var flips: [FlipEvent] = []
        var variants: [Int] = []

        mutating func poll() {
            for line in events.newLines() {
                guard let logged = try? LoggedEvent(jsonLine: line) else { continue }
                if logged.event.name == .firstFrame, firstFrame == nil { firstFrame = Monotonic.now }
                if let flip = FlipEvent(logged) { flips.append(flip) }
            }
            for line in errors.newLines() where line.hasPrefix("timeline: ") {
                let words = line.split(separator: " ")
                if let at = words.firstIndex(of: "variant"), at + 1 < words.count, let variant = Int(words[at + 1]) {
                    variants.append(variant)
                }
            }
        }

        func reached(_ variant: Int) -> Int? { variants.contains(variant) ? variant : nil }
    }
}

/// mpv doing the same conversion in software: the largest variant decoded, scaled by
/// libswscale (bilinear, like zapper) to the size in XRGB (`bgr0`), handed to `--vo=null`.
/// No overlay and no page flips: the closest mpv comes to zapper's software path.
struct DisplayMPVRun {
    let setup: PlaybackSetup
    let size: String

    func run() throws -> DisplayResult {
        let dimensions = size.split(separator: "x")
        let socketPath = setup.directory.appendingPathComponent("mpv-display.sock").path
        let length = Int(setup.warmup + setup.seconds + 30)
        let filter = "lavfi=[scale=\(dimensions[0]):\(dimensions[1]):flags=bilinear,format=bgr0]"
        let child = try ChildProcess(
            name: "mpv-\(size)", executable: try Tools.onPath("mpv"),
            arguments: ["--no-config", "--vo=null", "--ao=null", "--really-quiet", "--hls-bitrate=max",
                        "--vf=\(filter)", "--length=\(length)", "--input-ipc-server=\(socketPath)", setup.masterURL],
            directory: setup.directory)
        Progress.say("mpv: --vf=\(filter) --vo=null")
        try child.run()
        let sampler = ProcessSampler(pid: child.pid)
        defer { child.stop() }
        let control = try MPVControl(path: socketPath, seconds: 5)
        while control.firstEvent("playback-restart") == nil {
            guard child.isRunning else { throw BenchError("mpv exited before playing:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("mpv: no playback-restart in 30 s") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: setup.warmup)
        guard let first = sampler.sampleNow() else { throw BenchError("mpv exited before the window") }
        let firstDrops = Self.drops(control)
        Progress.say("mpv \(size): measuring \(Int(setup.seconds)) s")
        while Monotonic.now < first.time + setup.seconds {
            guard child.isRunning else { throw BenchError("mpv exited during the window:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let last = sampler.sampleNow() else { throw BenchError("mpv exited at the end of the window") }
        let lastDrops = Self.drops(control)
        // estimated-frame-number is not usable on a live stream: the filter chain's frame rate
        // over the window, less the frames dropped in it (--vo=null shows every other frame).
        let rate = control.property("estimated-vf-fps") as? Double ?? control.property("container-fps") as? Double
        let width = control.property("width") as? Int, height = control.property("height") as? Int
        control.quit()
        _ = child.waitForExit(seconds: 5)
        let frames = rate.map { max(0, Int(($0 * (last.time - first.time)).rounded()) - (lastDrops - firstDrops)) } ?? 0
        return DisplayResult(tool: "mpv --vf=scale,format=bgr0 --vo=null", size: size,
                             played: width.flatMap { w in height.map { "\(w)x\($0)" } } ?? "?",
                             seconds: last.time - first.time, cpuSeconds: last.cpuSeconds - first.cpuSeconds,
                             frames: frames, compose: nil)
    }

    static func drops(_ control: MPVControl) -> Int {
        (control.property("frame-drop-count") as? Int ?? 0) + (control.property("decoder-frame-drop-count") as? Int ?? 0)
    }
}
