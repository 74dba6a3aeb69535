import Foundation
import ZapperCore

/// How many of each event a run's log holds so far: the lines written since the
/// last `update` are counted (the log of a long soak is read once, not every time).
struct EventCounts {
    var byName: [EventName: Int] = [:]
    /// Lines holding `marker`.
    private(set) var marked = 0
    private let marker: String?
    private var tail: LogTail
    var tunes: Int { byName[.tune, default: 0] }
    var firstFrames: Int { byName[.firstFrame, default: 0] }

    init(url: URL, marker: String? = nil) {
        tail = LogTail(url: url)
        self.marker = marker
    }

    mutating func update() {
        for line in tail.newLines() {
            if let marker, line.contains(marker) { marked += 1 }
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
    /// The RSS split: anonymous pages (the allocator's, stacks) and file-backed pages (code, fonts).
    var anonymousMB: Double
    var fileMB: Double
    var descriptors: Int
    var threads: Int
    var counts: EventCounts
    /// What jemalloc holds (nil: not scraped); the rest of the anonymous pages are not its.
    var allocator: AllocatorScrape?

    init?(pid: pid_t, flips: Int, counts: EventCounts, allocator: AllocatorScrape?) {
        guard let memory = ProcFS.memory(pid),
              let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
              let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        self.flips = flips
        residentMB = Double(memory.resident) / 1_048_576
        anonymousMB = Double(memory.anonymous) / 1_048_576
        fileMB = Double(memory.fileBacked) / 1_048_576
        self.descriptors = descriptors.count
        self.threads = threads.count
        self.counts = counts
        self.allocator = allocator
    }

    /// Each figure the median of `readings` (taken one after another at one checkpoint).
    static func median(of readings: [SoakRow]) -> SoakRow? {
        guard var row = readings.first else { return nil }
        func middle<T: Comparable>(_ value: (SoakRow) -> T) -> T { readings.map(value).sorted()[readings.count / 2] }
        row.residentMB = middle(\.residentMB)
        row.anonymousMB = middle(\.anonymousMB)
        row.fileMB = middle(\.fileMB)
        row.descriptors = middle(\.descriptors)
        row.threads = middle(\.threads)
        row.allocator = AllocatorScrape.median(of: readings.compactMap(\.allocator))
        return row
    }

    var line: String {
        "after \(flips) changes: RSS \(String(format: "%.1f", residentMB)) MB (\(split)), \(descriptors) fds, \(threads) threads, "
            + EventCounts.shown.map { "\($0.rawValue) \(counts.byName[$0, default: 0])" }.joined(separator: ", ")
    }

    /// "anon 50.2, file 25.3" (MB), and what of the anonymous memory is jemalloc's.
    var split: String {
        String(format: "anon %.1f, file %.1f", anonymousMB, fileMB) + (allocatorCells.map { "; jemalloc " + $0 } ?? "")
    }

    /// What jemalloc holds, and the anonymous memory that is not its (stacks, mappings), MB.
    var allocatorCells: String? {
        allocator.map { $0.cells + String(format: "; not jemalloc's %.1f", anonymousMB - $0.residentMB) }
    }

    static func table(_ rows: [SoakRow], final: EventCounts, status: Int32, reason: String, dwell: Int, settle: Int) -> String {
        var lines = ["| changes | RSS MB | from the start | anon, file MB | jemalloc MB | fds | threads | "
                     + EventCounts.shown.map(\.rawValue).joined(separator: " | ") + " |",
                     "|---:|---:|---:|---:|---|---:|---:|" + String(repeating: "---:|", count: EventCounts.shown.count)]
        let start = rows.first
        for row in rows {
            lines.append("| \(row.flips) | \(String(format: "%.1f", row.residentMB)) | \(String(format: "%+.1f", row.residentMB - (start?.residentMB ?? 0))) | "
                         + String(format: "%.1f, %.1f", row.anonymousMB, row.fileMB) + " | \(row.allocatorCells ?? "-") | \(row.descriptors) | \(row.threads) | "
                         + EventCounts.shown.map { String(row.counts.byName[$0, default: 0]) }.joined(separator: " | ") + " |")
        }
        lines.append("")
        if let start, let last = rows.last, last.flips > start.flips {
            let worst = rows.map { $0.residentMB - start.residentMB }.max() ?? 0
            lines.append(String(format: "RSS after %d changes: %+.1f MB from the start, at most %+.1f at any reading (goal: within 2); fds %+d, threads %+d",
                                last.flips, last.residentMB - start.residentMB, worst, last.descriptors - start.descriptors, last.threads - start.threads))
        }
        lines.append("jemalloc MB (zapper's metrics, scraped with each reading): live data, slack (the unused room in the pages holding it), "
                     + "its metadata, dirty pages (freed, not given back yet), all its pages in memory; not jemalloc's: the rest of anon (thread stacks, other mappings).")
        lines.append("Each reading: channel 1 (the first) typed again and played \(settle) ms with no fault, then read (RSS: the median of \(SoakBench.samples) readings over the next 2.5 s). zapper ended with \(reason) "
                     + "after \(final.tunes) tunes (\(dwell) ms apart; adjacent, typed numbers and KEY_LAST in turn; origin faults on one other channel at a time, on and off at random).")
        return lines.joined(separator: "\n")
    }
}
