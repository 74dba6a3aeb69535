import Foundation

/// The zapper process's resident memory and CPU time, from /proc/self.
public struct ProcessSample: Sendable, Equatable {
    public var residentBytes: Double
    /// User plus system time, seconds.
    public var cpuSeconds: Double

    public init(residentBytes: Double, cpuSeconds: Double) {
        self.residentBytes = residentBytes
        self.cpuSeconds = cpuSeconds
    }

    /// Read now (nil when /proc cannot be read).
    public static func current() -> ProcessSample? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        return parse(stat: stat, statm: statm, ticksPerSecond: Int(sysconf(Int32(_SC_CLK_TCK))), pageSize: Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// From the texts of /proc/self/stat and /proc/self/statm: utime and stime (fields 14 and 15,
    /// counted after the command's name, which may hold spaces and parentheses) and the resident pages.
    public static func parse(stat: String, statm: String, ticksPerSecond: Int, pageSize: Int) -> ProcessSample? {
        guard ticksPerSecond > 0, pageSize > 0, let close = stat.lastIndex(of: ")") else { return nil }
        // After ")": state (field 3), ppid (4), …, utime (14), stime (15).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        let pages = statm.split(separator: " ")
        guard pages.count > 1, let resident = UInt64(pages[1]) else { return nil }
        return ProcessSample(residentBytes: Double(resident) * Double(pageSize),
                             cpuSeconds: (Double(user) + Double(system)) / Double(ticksPerSecond))
    }
}
