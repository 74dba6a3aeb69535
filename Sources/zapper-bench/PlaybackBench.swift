import ArgumentParser
import Foundation

/// `zapper-bench playback`: cold start to first frame, CPU and memory while
/// playing the largest variant for a minute — zapper, then mpv, then ffmpeg
/// decode-only, one after the other against one origin, in one run.
struct PlaybackBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playback",
        abstract: "Cold start, CPU % and RSS while playing 1080p: zapper beside mpv and ffmpeg -f null.")

    @Option(help: "The demo channel to play.")
    var channel = 2

    @Option(help: "Length of each measured window, in seconds.")
    var seconds = 60.0

    @Option(help: "Seconds between a tool playing the largest variant and the start of its window.")
    var warmup = 2.0

    @Option(help: "Seconds zapper may take after its first frame to step up to the largest variant.")
    var settle = 20.0

    @OptionGroup var inputs: BenchInputs

    @Option(help: "Run only these tools (zapper, mpv, ffmpeg; repeatable). Default: all three.")
    var only: [String] = []

    @Flag(help: "Skip the unpaced ffmpeg decode.")
    var skipUnpaced = false

    @Flag(help: "Keep the run's folder (logs, event log, scripts) and print where it is.")
    var keep = false

    func validate() throws {
        for name in only where !["zapper", "mpv", "ffmpeg"].contains(name) {
            throw ValidationError("--only \(name): expected zapper, mpv or ffmpeg")
        }
        guard seconds >= 1, warmup >= 0, settle >= 0 else { throw ValidationError("--seconds must be 1 or more, --warmup and --settle 0 or more") }
    }

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer {
            if keep { Progress.say("kept \(directory.path)") } else { try? FileManager.default.removeItem(at: directory) }
        }
        let date = Date()
        let loadBefore = ProcFS.loadAverage()
        let channelsPath = inputs.channelsPath

        Progress.say("starting zapper-origin (a cold encode cache takes a few minutes)")
        let origin = try OriginServer(binary: try tools.product("zapper-origin"), channels: channelsPath, directory: directory)
        defer { origin.stop() }
        let lineup = try HTTP.text(origin.baseURL + "/demo.m3u")
        let masterURL = "\(origin.baseURL)/ch/\(channel)/master.m3u8"
        guard lineup.contains(masterURL) else { throw ValidationError("--channel \(channel): not in the origin's lineup") }
        let variants = try HTTP.variants(master: masterURL)
        let target = variants.max { $0.width * $0.height < $1.width * $1.height }!
        let setup = PlaybackSetup(tools: tools, origin: origin, channel: channel, channelName: Self.name(of: channel, in: lineup),
                                  masterURL: masterURL, variants: variants, target: target,
                                  seconds: seconds, warmup: warmup, settle: settle, directory: directory)
        Progress.say("origin \(origin.baseURL), channel \(channel) (\(setup.channelName)): \(variants.map(\.resolution).joined(separator: ", "))")

        let chosen = only.isEmpty ? ["zapper", "mpv", "ffmpeg"] : only
        var results: [ToolResult] = []
        var unpaced: String?
        if chosen.contains("zapper") { results.append(try ZapperRun(setup: setup).run()) }
        if chosen.contains("mpv") { results.append(try MPVRun(setup: setup).run()) }
        if chosen.contains("ffmpeg") {
            let ffmpeg = FFmpegRun(setup: setup)
            results.append(try ffmpeg.paced())
            if !skipUnpaced { unpaced = try ffmpeg.unpaced() }
        }
        let loadAfter = ProcFS.loadAverage()

        let report = PlaybackReport(date: date, setup: setup, results: results, unpaced: unpaced,
                                    loadBefore: loadBefore, loadAfter: loadAfter)
        print(report.text)
    }

    /// The channel's name from the lineup's `#EXTINF` line with its `tvg-chno`.
    static func name(of channel: Int, in lineup: String) -> String {
        let line = lineup.split(whereSeparator: \.isNewline).first { $0.contains("tvg-chno=\"\(channel)\"") }
        return line?.split(separator: ",").last.map(String.init) ?? "channel \(channel)"
    }
}
