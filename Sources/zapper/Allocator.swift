import CJemalloc
import Foundation
import ZapperMetrics

/// zapper's allocator: jemalloc (Debian's libjemalloc2), linked in, with its settings built in
/// (`malloc_conf` in CJemalloc): one arena for every thread, dirty pages given back to the
/// system after a second by jemalloc's own background thread, and none kept as "muzzy"
/// (lazily freed) pages. `MALLOC_CONF` in the environment still overrides them, for measuring.
///
/// Why not glibc's allocator: zapper's threads come and go with every channel change (demux,
/// decode, segment fetches), and what one channel frees does not fit what the next allocates.
/// glibc's allocator was tuned as far as it goes (one arena, fixed mmap thresholds of 32 and
/// 64 KiB, a `malloc_trim` after each change settled and every minute): its RSS still stayed
/// about 2 MB up after the first thousand changes, its main heap holding free pages it cannot
/// give back. `zapper-bench soak --dwell 200` (release builds, one run each, jemalloc
/// preloaded with `LD_PRELOAD`, its settings in `MALLOC_CONF`): glibc, so tuned, +2.6 MB after
/// 10,000 changes (+1.3 to +2.6 from 1,000 on); jemalloc's defaults (eight arenas on two cores)
/// +29.8 MB after 1,000; these settings without the background thread −0.2, with it −1.9 after
/// 1,000, and +0.5 after 10,000 (between −0.2 and +1.8 at every thousand). Playing 1080p, the
/// same CPU within the runs' spread; 5 MB more RSS at the start than glibc.
///
/// Dirty pages (freed, not given back yet) are kept 250 ms, not a second: with fewer than 1,024
/// of them (4 MiB) jemalloc's thread sleeps the whole decay time before it looks again. At a
/// second, 2 of the 21 readings of a 10,000-change soak (scraped `zapper_allocator_bytes`) held
/// 4.4-4.5 MB of them and stood 4.2-4.6 MB above the start, all the others within 2 MB; playing
/// 1080p, 250 ms took the same CPU within the runs' spread (37.5-39.5 % against 36.7-39.5 %).
enum Allocator {
    /// What zapper says about its allocator at its start: jemalloc and its settings, or that
    /// another allocator serves the process (a library preloaded for debugging, a missing link).
    static func description() -> String {
        let owner = zapper_malloc_owner().map { String(cString: $0) } ?? "an unknown object"
        guard let version = string("version")?.prefix(while: { $0 != "-" }) else {
            return "allocator: jemalloc not answering; malloc is from \(owner)"
        }
        guard isJemalloc(owner) else {
            return "allocator: malloc is from \(owner), not jemalloc \(version): memory may grow with each channel change"
        }
        var settings: [String] = []
        if let arenas = unsigned("opt.narenas") { settings.append(arenas == 1 ? "1 arena" : "\(arenas) arenas") }
        if let background = bool("opt.background_thread") {
            settings.append(background ? "background thread" : "no background thread")
        }
        if let dirty = milliseconds("opt.dirty_decay_ms") { settings.append("dirty pages kept \(dirty) ms") }
        if let muzzy = milliseconds("opt.muzzy_decay_ms") { settings.append("muzzy \(muzzy) ms") }
        return "allocator jemalloc \(version): " + settings.joined(separator: ", ")
    }

    /// What jemalloc holds now, for the metrics; nil when another allocator serves the process
    /// (jemalloc's counters would then count nothing of it).
    @Sendable static func sample() -> AllocatorSample? {
        guard serves else { return nil }
        var stats = zapper_jemalloc_stats()
        guard zapper_jemalloc_read_stats(&stats) == 0 else { return nil }
        return AllocatorSample(allocated: Double(stats.allocated), active: Double(stats.active), metadata: Double(stats.metadata),
                               resident: Double(stats.resident), dirty: Double(stats.dirty))
    }

    /// Whether jemalloc's malloc is the one this process calls.
    private static let serves = zapper_malloc_owner().map { isJemalloc(String(cString: $0)) } ?? false

    private static func isJemalloc(_ owner: String) -> Bool {
        (owner.split(separator: "/").last ?? "").hasPrefix("libjemalloc")
    }

    private static func string(_ name: String) -> String? {
        var value: UnsafePointer<CChar>?
        guard zapper_jemalloc_string(name, &value) == 0, let value else { return nil }
        return String(cString: value)
    }

    private static func unsigned(_ name: String) -> UInt32? {
        var value: UInt32 = 0
        return zapper_jemalloc_unsigned(name, &value) == 0 ? value : nil
    }

    private static func bool(_ name: String) -> Bool? {
        var value = false
        return zapper_jemalloc_bool(name, &value) == 0 ? value : nil
    }

    private static func milliseconds(_ name: String) -> Int? {
        var value = 0
        return zapper_jemalloc_milliseconds(name, &value) == 0 ? value : nil
    }
}
