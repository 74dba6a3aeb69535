import Foundation

/// Reads what Linux says about a process in /proc: CPU ticks from
/// `/proc/PID/stat`, memory from `/proc/PID/status`, and the process tree
/// (a tool that forks is measured with its children).
enum ProcFS {
    /// Clock ticks per second of the `stat` times (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    struct Stat {
        var parent: pid_t
        /// utime + stime of the process (all its threads) plus cutime + cstime
        /// (its children that have exited and been waited for), in ticks.
        var ticks: Int
    }

    struct Memory {
        /// Resident set size now (VmRSS) and its high-water mark (VmHWM), in bytes.
        var resident: Int
        var peak: Int
        /// VmRSS split: anonymous pages (RssAnon) and file-backed or shared ones (RssFile + RssShmem).
        var anonymous = 0
        var fileBacked = 0
    }

    static func stat(_ pid: pid_t) -> Stat? {
        guard let text = read("/proc/\(pid)/stat") else { return nil }
        // The command name is in parentheses and may hold spaces or parentheses itself:
        // the fields after the last ")" start with the state (field 3 of proc(5)).
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Field n of proc(5) is fields[n - 3]: ppid 4, utime 14, stime 15, cutime 16, cstime 17.
        guard fields.count > 14, let parent = pid_t(fields[1]) else { return nil }
        let times = fields[11...14].compactMap { Int($0) }
        guard times.count == 4 else { return nil }
        return Stat(parent: parent, ticks: times.reduce(0, +))
    }

    static func memory(_ pid: pid_t) -> Memory? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), line.hasPrefix("Vm") || line.hasPrefix("Rss") else { continue }
            fields[line[..<colon]] = kilobytes(line)
        }
        // A zombie has none of these lines: it holds no memory any more.
        func bytes(_ name: Substring) -> Int { (fields[name] ?? 0) * 1024 }
        return Memory(resident: bytes("VmRSS"), peak: bytes("VmHWM"), anonymous: bytes("RssAnon"),
                      fileBacked: bytes("RssFile") + bytes("RssShmem"))
    }

    /// The process and all its descendants alive now.
    static func tree(root: pid_t) -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [root] }
        var children: [pid_t: [pid_t]] = [:]
        for name in names {
            guard let pid = pid_t(name), pid != root, let stat = stat(pid) else { continue }
            children[stat.parent, default: []].append(pid)
        }
        var result = [root]
        var index = 0
        while index < result.count {
            result += children[result[index]] ?? []
            index += 1
        }
        return result
    }

    /// The load averages, as `uptime` prints them.
    static func loadAverage() -> String {
        let fields = (read("/proc/loadavg") ?? "").split(separator: " ")
        return fields.count >= 3 ? fields[0..<3].joined(separator: ", ") : "unknown"
    }

    /// The CPU model and how many CPUs this process may use.
    static func machine() -> String {
        let line = (read("/proc/cpuinfo") ?? "").split(separator: "\n").first { $0.hasPrefix("model name") }
        let model = line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(ProcessInfo.processInfo.activeProcessorCount) × \(model)"
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        // "VmRSS:\t  123456 kB"
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    private static func read(_ path: String) -> String? {
        // /proc files report a size of 0: read them whole through FileHandle.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
