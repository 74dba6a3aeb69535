import ArgumentParser
import Foundation
import ZapperCore

/// `zapper-bench zap`: how long a channel change takes, press to picture —
/// zapper's adjacent flips and number-entry tunes (from its event log's
/// `zap_ms`, press to page flip) beside mpv's `playlist-next` →
/// `playback-restart` over the same channels, default and low-latency profile.
struct ZapBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zap",
        abstract: "Zap times: zapper's adjacent flips and number entry beside mpv's playlist-next.")

    @Option(help: "How many changes of each kind.")
    var count = 20

    @Option(help: "Seconds to watch each channel before the next change.")
    var dwell = 2.0

    @Option(help: "Put the origin behind a shaped link: lan, broadband or poor (needs root; see Sources/zapper-bench/README.md).")
    var network: NetworkProfile?

    @OptionGroup var inputs: BenchInputs

    func validate() throws {
        guard count >= 1, dwell >= 0.5 else { throw ValidationError("--count must be 1 or more and --dwell 0.5 or more") }
    }

    func run() throws {
        let tools = inputs.tools
        let directory = try inputs.scratchFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loadBefore = ProcFS.loadAverage()
        Progress.say("starting zapper-origin" + (network.map { " behind a \($0) link" } ?? ""))
        let link = try ZapNetwork(profile: network, tools: tools, channels: inputs.channelsPath, directory: directory)
        defer { link.stop() }
        let lineup = try HTTP.text(link.baseURL + "/demo.m3u")
        let masters = lineup.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasSuffix("master.m3u8") }
        let numbers = HTTP.channelNumbers(lineup: lineup)
        guard masters.count >= 3, numbers.count == masters.count else { throw BenchError("the origin's lineup has too few channels") }

        var rows: [(String, [Int])] = []
        let zapper = try zapperTimes(tools: tools, lineup: lineup, numbers: numbers, directory: directory)
        rows.append(("zapper, adjacent flip (next/previous)", zapper.adjacent))
        rows.append(("zapper, number entry", zapper.number))
        let firstPictures = zapper.adjacentSizes
        // mpv as it plays by default (the highest variant), and like zapper's first picture after a
        // flip (the lowest variant: zapper then steps up, mpv stays there).
        for (profile, bitrate) in [(nil, "max"), ("low-latency", "max"), ("low-latency", "min")] {
            let times = try mpvTimes(masters: masters, profile: profile, bitrate: bitrate, directory: directory)
            rows.append(("mpv playlist-next\(profile.map { " --profile=\($0)" } ?? "") --hls-bitrate=\(bitrate)", times))
        }
        let loadAfter = ProcFS.loadAverage()
        print(report(rows, loadBefore: loadBefore, loadAfter: loadAfter))
        print("network: \(network.map(String.init(describing:)) ?? "loopback"); \(link.mechanism)")
        let sizes = Dictionary(grouping: firstPictures, by: { $0.prefix { $0 != " " } }).sorted { $0.value.count > $1.value.count }
        print("zapper: first picture after each adjacent flip, in order: \(firstPictures.joined(separator: " ")) (\(sizes.map { "\($0.value.count)x \($0.key)" }.joined(separator: ", ")))")
        for (traffic, when) in [(zapper.neighbourTraffic, "the %.1f s of adjacent flipping (two new neighbours at each flip)"),
                                (zapper.restTraffic, "the %.1f s of rest on the last channel, then to the first typed channel's picture")] {
            guard let traffic else { continue }
            print(String(format: "zapper: warm neighbours fetched %d kB in \(when): %.0f kbit/s for both together (goal <= 1000 at broadband)",
                         traffic.bytes / 1000, traffic.seconds, Double(traffic.bytes) * 8 / max(traffic.seconds, 0.001) / 1000))
        }
        if let network, let goal = ZapNetwork.numberGoal(profile: network, master: masters[0]) {
            print("number entry goal at \(network.name): 2.5 round trips + one \(goal.segmentBytes / 1000) kB segment of the lowest variant = \(goal.milliseconds) ms")
        }
        if let low = rows.first(where: { $0.0.contains("low-latency --hls-bitrate=max") })?.1.sorted(), !low.isEmpty {
            for (name, times) in rows.prefix(2) where !times.isEmpty {
                let ours = times.sorted()[times.count / 2], theirs = low[low.count / 2]
                print(String(format: "%@: mpv --profile=low-latency's p50 is %.1fx zapper's", name, Double(theirs) / Double(max(ours, 1))))
            }
        }
    }

    /// zapper at 1920x1080 offscreen: `count` flips up and down the lineup, then `count` numbers typed.
    /// Seconds on the last channel after the adjacent flips.
    static let restSeconds = 20.0

    private struct ZapperTimes {
        var adjacent: [Int] = []
        var number: [Int] = []
        /// The first picture's size after each adjacent flip.
        var adjacentSizes: [String] = []
        /// What the warm neighbours fetched from the first picture to the last adjacent flip's, and over how long.
        var neighbourTraffic: (bytes: Int, seconds: Double)?
        /// What they fetched in the rest after the last adjacent flip (to the first typed channel's picture).
        var restTraffic: (bytes: Int, seconds: Double)?
    }

    private func zapperTimes(tools: Tools, lineup: String, numbers: [Int], directory: URL) throws -> ZapperTimes {
        let dwellMilliseconds = Int(dwell * 1000)
        var script = "wait-event first-frame 30000\nwait \(dwellMilliseconds)\n"
        var at = 0  // the index of the channel on screen
        for index in 0..<count {
            // Up through the lineup, then back down: every flip is to a neighbour.
            let up = (index / (numbers.count - 1)) % 2 == 0
            at += up ? 1 : -1
            script += "press \(up ? "KEY_CHANNELUP" : "KEY_CHANNELDOWN")\nwait-event first-frame 15000\nwait \(dwellMilliseconds)\n"
        }
        // A rest on the last channel: what its two warm neighbours cost while nobody flips.
        script += "wait \(Int(Self.restSeconds * 1000))\n"
        for index in 0..<count {
            // A channel two or more away (not warm, unless the lineup wraps), typed digit by digit;
            // never the one on screen (typing it tunes nothing).
            var next = (index * 3 + 2) % numbers.count
            if next == at { next = (next + 2) % numbers.count }
            at = next
            script += String(numbers[next]).map { "press KEY_\($0)\n" }.joined() + "wait-event first-frame 15000\nwait \(dwellMilliseconds)\n"
        }
        script += "quit\n"
        let (child, eventsURL) = try scriptedZapper(name: "zapper-zap", tools: tools, directory: directory, lineup: lineup,
                                                    script: script, arguments: ["--channel", String(numbers[0]), "--size", "1920x1080"])
        Progress.say("zapper: \(count) adjacent flips, then \(count) numbers, \(dwell) s apart")
        try child.run()
        defer { child.stop() }
        guard child.waitForExit(seconds: Double(count) * 2 * (dwell + 16) + Self.restSeconds + 60), child.process.terminationStatus == 0 else {
            throw BenchError("zapper did not finish its zap script:\n\(child.stderrTail())")
        }
        var lastReason = ""
        var lastWarm = false
        var warmNumbers = 0
        var times = ZapperTimes()
        var start: (ms: Int, bytes: Int)?
        var lastAdjacent: (ms: Int, bytes: Int)?
        for line in try String(contentsOf: eventsURL, encoding: .utf8).split(separator: "\n") {
            guard let logged = try? LoggedEvent(jsonLine: line) else { continue }
            if case let .tune(_, _, reason, warm) = logged.event {
                lastReason = reason.rawValue
                lastWarm = warm
            }
            guard case let .firstFrame(_, zap, width, height, neighbourBytes) = logged.event else { continue }
            let mark = (ms: logged.milliseconds, bytes: neighbourBytes)
            if start == nil { start = mark }
            switch lastReason {
            case "next", "previous":
                times.adjacent.append(zap)
                times.adjacentSizes.append("\(width)x\(height) (\(zap) ms)")
                lastAdjacent = mark
            case "number":
                if times.number.isEmpty, let lastAdjacent {
                    times.restTraffic = (mark.bytes - lastAdjacent.bytes, Double(mark.ms - lastAdjacent.ms) / 1000)
                }
                times.number.append(zap)
                if lastWarm { warmNumbers += 1 }
            default: break
            }
        }
        Progress.say("zapper: \(warmNumbers) of \(times.number.count) typed channels happened to be warm neighbours")
        if let start, let lastAdjacent, lastAdjacent.ms > start.ms {
            times.neighbourTraffic = (lastAdjacent.bytes - start.bytes, Double(lastAdjacent.ms - start.ms) / 1000)
        }
        return times
    }

    /// mpv over the same channels' master playlists: `playlist-next` → `playback-restart`.
    private func mpvTimes(masters: [String], profile: String?, bitrate: String, directory: URL) throws -> [Int] {
        let playlist = directory.appendingPathComponent("zap-playlist.m3u")
        try (masters.joined(separator: "\n") + "\n").write(to: playlist, atomically: true, encoding: .utf8)
        let socketPath = directory.appendingPathComponent("zap-mpv-\(profile ?? "default")-\(bitrate).sock").path
        var arguments = ["--no-config", "--vo=null", "--ao=null", "--really-quiet", "--hls-bitrate=\(bitrate)",
                         "--loop-playlist=inf", "--input-ipc-server=\(socketPath)", playlist.path]
        if let profile { arguments.insert("--profile=\(profile)", at: 1) }
        let child = try ChildProcess(name: "mpv-zap-\(profile ?? "default")-\(bitrate)", executable: try Tools.onPath("mpv"),
                                     arguments: arguments, directory: directory)
        Progress.say("mpv\(profile.map { " --profile=\($0)" } ?? "") --hls-bitrate=\(bitrate): \(count) playlist-next")
        try child.run()
        defer { child.stop() }
        let control = try MPVControl(path: socketPath, seconds: 10)
        guard control.event("playback-restart", after: 0, seconds: 30) != nil else { throw BenchError("mpv did not start playing") }
        Thread.sleep(forTimeInterval: dwell)
        var times: [Int] = []
        for _ in 0..<count {
            let sent = control.command(["playlist-next"])
            guard let restarted = control.event("playback-restart", after: sent, seconds: 15) else {
                throw BenchError("mpv: no playback-restart within 15 s of playlist-next")
            }
            times.append(Int(((restarted - sent) * 1000).rounded()))
            Thread.sleep(forTimeInterval: dwell)
        }
        control.quit()
        return times
    }

    private func report(_ rows: [(String, [Int])], loadBefore: String, loadAfter: String) -> String {
        func percentile(_ sorted: [Int], _ p: Double) -> Int { sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        var lines = ["| change | n | p50 ms | p95 ms | max ms |", "|---|---:|---:|---:|---:|"]
        for (name, times) in rows {
            let sorted = times.sorted()
            guard !sorted.isEmpty else { lines.append("| \(name) | 0 | – | – | – |"); continue }
            lines.append("| \(name) | \(sorted.count) | \(percentile(sorted, 0.5)) | \(percentile(sorted, 0.95)) | \(sorted.last!) |")
        }
        lines.append("")
        lines.append("zapper: press → page flip of the new channel's first picture (its event log's zap_ms), 1920x1080 offscreen, neighbours kept warm by the head (first key frame) of each new segment of the variant the measured bandwidth carries, within 500 kbit/s each (a typed channel may happen to be one): the first picture is that variant's. mpv: playlist-next → playback-restart, --vo=null --ao=null.")
        lines.append("goals: adjacent p95 <= 100 ms and p50 <= a quarter of mpv --profile=low-latency's p50; number entry p95 <= 300 ms.")
        lines.append("load average before: \(loadBefore); after: \(loadAfter)")
        return lines.joined(separator: "\n")
    }
}
