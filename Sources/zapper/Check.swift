import ArgumentParser
import Dispatch
import Foundation
import ZapperCore
import ZapperEngine
import ZapperHLS
import ZapperSettings

/// `zapper check LINEUP`: what a person with a 900-channel lineup needs first.
/// Reads the lineup (reporting every bad line), then probes every channel a
/// few at a time with its own headers, as zapper would play it: what its URL
/// answers (HLS master or media playlist, raw MPEG-TS, or neither), the
/// variants and codecs, and whether a first picture decodes. Prints a table
/// and a summary and writes the report as JSON, also into the state
/// directory, where `hide-dead-channels` finds it.
struct ZapperCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper check",
        abstract: "Probe every channel of a lineup: reachable, HLS or MPEG-TS, variants, codecs, a first picture.",
        discussion: "Exits 0 when every channel plays, 1 when some do not, 2 when the lineup cannot be read.")

    @Argument(help: "The lineup: an M3U Plus file or http(s) URL (default: the configuration's `lineup`).")
    var lineup: String?

    @Option(help: "The configuration file, TOML (default: /etc/zapper/zapper.toml when it exists).")
    var config: String?

    @Option(help: "Where to write the report as JSON.")
    var json = "zapper-check.json"

    @Option(help: "The state directory to keep the report in for the panel (default: zapper's own; `none`: do not keep it).")
    var stateDir: String?

    @Option(help: "Channels probed at once.")
    var jobs = 8

    @Option(help: "Seconds a channel has to give its first picture.")
    var seconds = 20.0

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1 to 64") }
        guard seconds >= 1, seconds <= 300 else { throw ValidationError("--seconds must be 1 to 300") }
    }

    func run() throws {
        let settings: ZapperConfig
        do {
            settings = try ConfigFile.load(path: config)
        } catch {
            throw ValidationError("\(error)")
        }
        for note in settings.notes { print(note) }
        guard let source = lineup ?? settings.lineup else { throw ValidationError("Missing expected argument '<lineup>'") }
        try Zapper.setUpFetching(settings)
        let text: String
        do {
            text = try LineupText.read(source, cacheDirectory: nil) { print($0) }.text
        } catch {
            FileHandle.standardError.write(Data("zapper check: \(error)\n".utf8))
            throw ExitCode(2)
        }
        Zapper.blockWhatTheLineupLists(settings)
        let parsed = Zapper.parseLineup(text, source: source, settings: settings)
        for problem in parsed.problems { print(problem) }
        print("checking \(parsed.channels.count) channels, \(jobs) at a time")
        let results = Self.probe(parsed.channels, jobs: jobs, seconds: seconds)
        let report = LineupCheckReport(lineup: source, checkedAt: Date().timeIntervalSince1970,
                                       problems: parsed.problems.map(\.description), channels: results)
        print(report.table())
        print(report.summary)
        let data = try report.json()
        try data.write(to: URL(fileURLWithPath: json), options: .atomic)
        print("report written to \(json)")
        if stateDir != "none", let store = try? StateStore(directory: StateStore.directory(flag: stateDir)) {
            try? data.write(to: store.directory.appendingPathComponent(LineupCheckReport.fileName), options: .atomic)
        }
        if !report.failed.isEmpty { throw ExitCode(1) }
    }

    /// Probes the channels `jobs` at a time, waiting on this (the main) thread, not on Swift's pool.
    static func probe(_ channels: [LineupChannel], jobs: Int, seconds: Double) -> [ChannelCheck] {
        let results = Results()
        let done = DispatchSemaphore(value: 0)
        Task {
            await withTaskGroup(of: ChannelCheck.self) { group in
                var next = channels.makeIterator()
                for _ in 0..<jobs {
                    guard let channel = next.next() else { break }
                    group.addTask { await ChannelProbe.check(channel, seconds: seconds) }
                }
                for await result in group {
                    results.add(result)
                    if let channel = next.next() { group.addTask { await ChannelProbe.check(channel, seconds: seconds) } }
                }
            }
            done.signal()
        }
        done.wait()
        return results.all
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [ChannelCheck] = []

        func add(_ item: ChannelCheck) {
            lock.withLock { items.append(item) }
            let mark = item.ok ? "ok" : "FAILED \(item.failure ?? ""): \(item.reason ?? "")"
            print("\(item.number) \(item.name): \(mark)")
        }

        var all: [ChannelCheck] { lock.withLock { items } }
    }
}
