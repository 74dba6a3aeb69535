import Foundation
import ZapperCore

/// How many of each event a run's log holds so far: the lines written since the
/// last `update` are counted (the log of a long soak is read once, not every time).
struct EventCounts {
    var byName: [EventName: Int] = [:]
    private var tail: LogTail
    var tunes: Int { byName[.tune, default: 0] }
    var firstFrames: Int { byName[.firstFrame, default: 0] }

    init(url: URL) { tail = LogTail(url: url) }

    mutating func update() {
        for line in tail.newLines() {
            // {"t_ms": …, "event": "NAME", …}: the name without a JSON parse per line.
            guard let range = line.range(of: "\"event\": \"") else { continue }
            guard let name = EventName(rawValue: String(line[range.upperBound...].prefix { $0 != "\"" })) else { continue }
            byName[name, default: 0] += 1
        }
    }

    static let shown: [EventName] = [.firstFrame, .loadFailed, .loadRecovered, .stalled, .interstitialDismissed]
}

/// One line of the soak's table: the process as /proc sees it after so many changes.
struct SoakRow {
    var flips: Int
    var residentMB: Double
    var descriptors: Int
    var threads: Int
    var counts: EventCounts

    init?(pid: pid_t, flips: Int, counts: EventCounts) {
        guard let memory = ProcFS.memory(pid),
              let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
              let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        self.flips = flips
        residentMB = Double(memory.resident) / 1_048_576
        self.descriptors = descriptors.count
        self.threads = threads.count
        self.counts = counts
    }

    var line: String {
        "after \(flips) changes: RSS \(String(format: "%.1f", residentMB)) MB, \(descriptors) fds, \(threads) threads, "
            + EventCounts.shown.map { "\($0.rawValue) \(counts.byName[$0, default: 0])" }.joined(separator: ", ")
    }

    static func table(_ rows: [SoakRow], final: EventCounts, status: Int32, reason: String, dwell: Int) -> String {
        var lines = ["| changes | RSS MB | fds | threads | " + EventCounts.shown.map(\.rawValue).joined(separator: " | ") + " |",
                     "|---:|---:|---:|---:|" + String(repeating: "---:|", count: EventCounts.shown.count)]
        for row in rows {
            lines.append("| \(row.flips) | \(String(format: "%.1f", row.residentMB)) | \(row.descriptors) | \(row.threads) | "
                         + EventCounts.shown.map { String(row.counts.byName[$0, default: 0]) }.joined(separator: " | ") + " |")
        }
        lines.append("")
        // Growth from the second row on: the first interval fills the caches (codec parameters,
        // logos, the HTTP pool, the guide) once.
        let from = rows.count >= 3 ? rows[1] : rows.first
        if let first = from, let last = rows.last, last.flips > first.flips {
            let growth = (last.residentMB - first.residentMB) / Double(last.flips - first.flips) * 1000
            lines.append(String(format: "RSS growth: %.2f MB per 1,000 changes from %d to %d (goal: at most 2); fds %+d, threads %+d over the same",
                                growth, first.flips, last.flips, last.descriptors - first.descriptors, last.threads - first.threads))
        }
        lines.append("zapper ended with \(reason) after \(final.tunes) tunes (\(dwell) ms apart; adjacent, typed numbers and KEY_LAST in turn; origin faults on one channel at a time, on and off at random).")
        return lines.joined(separator: "\n")
    }
}
