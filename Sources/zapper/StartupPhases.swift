import Foundation
import Glibc

/// How long zapper took to start, by phase, said once before the first tune: a box that starts
/// slowly (a weak CPU, a slow disk, an emulator) shows where the time went.
///
/// The first phase, "before main", is from the process's start (its start time in
/// `/proc/self/stat`, in clock ticks since boot) to `run()`: a service manager's sandbox set-up
/// and any wrapper script come first (the process is forked before them), then the loading of
/// the shared libraries and the runtime.
struct StartupPhases {
    private var marks: [(name: String, at: Double)] = []
    private let begun: Double
    private let beforeMain: Double?

    init() {
        let now = Self.bootSeconds()
        begun = now
        beforeMain = Self.processStart().map { now - $0 }
    }

    /// Ends the phase called `name` now.
    mutating func mark(_ name: String) {
        marks.append((name, Self.bootSeconds()))
    }

    /// "started in 1.23 s: before main 0.40 s, display 0.31 s, …".
    var line: String {
        var phases: [String] = []
        if let beforeMain, beforeMain >= 0 { phases.append("before main " + Self.seconds(beforeMain)) }
        var from = begun
        for mark in marks {
            phases.append("\(mark.name) " + Self.seconds(mark.at - from))
            from = mark.at
        }
        let total = from - begun + max(beforeMain ?? 0, 0)
        return "started in " + Self.seconds(total) + ": " + phases.joined(separator: ", ")
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    private static func bootSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Field 22 of /proc/self/stat (after the command's closing parenthesis), in seconds since boot.
    private static func processStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state): field 22 is fields[19].
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return perSecond > 0 ? ticks / perSecond : nil
    }
}
