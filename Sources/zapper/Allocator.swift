import CMalloc
import Foundation

/// glibc's allocator, set for a process that runs for months.
///
/// By default glibc gives threads up to eight arenas per core, and zapper's threads come
/// and go with every channel change (demux, decode, segment fetches): freed memory stays
/// spread over many arenas, each holding on to its own pages, and the RSS creeps up.
/// Measured with `zapper-bench soak --flips 3000 --dwell 200 --every 500` (release build,
/// one run each, `MALLOC_ARENA_MAX` set for the run): RSS after 1,000 changes 204 MB by
/// default, 164 MB with four arenas, 156 MB with two; growth from 500 to 2,500 changes
/// 6.8, 1.0 and 3.2 MB per 1,000 changes. Four it was. Since the arenas are trimmed
/// (`ArenaTrim`) one does better (`zapper-bench soak --flips 1000 --dwell 200 --every 100`,
/// release build, one run each, 2026-11-28): four arenas +11.0 MB after 100 changes and +10.0
/// after 1,000, one arena +4.3 and +6.2; playing 1080p, CPU and RSS the same. The appliance
/// test in QEMU passed with one (READY=1 3.3 and 3.2 s after a kill, as with four). One it is.
/// `MALLOC_ARENA_MAX` in the environment still wins, for measuring.
///
/// Large blocks get pages of their own from 128 KiB up, always. glibc starts there but raises
/// the threshold each time such a block is freed, up to 32 MiB: decoded pictures, a warm
/// neighbour's decoder (opened for each head it keeps) and segment bodies then land in the
/// arenas, and the holes they leave stay resident. Playing 1080p with both neighbours warm
/// (one-thread decoder, release build, VmRSS from 20 to 44 s, `MALLOC_MMAP_THRESHOLD_` set
/// for the run): 180-182 MB with the moving threshold, 165-166 MB fixed at 128 KiB, 171-173 MB
/// at 256 KiB; glibc's own statistics showed 21.5 MB free inside the arenas before, under 4
/// after. The CPU over those runs stayed within their spread.
enum Allocator {
    static let arenas: Int32 = 1
    static let mmapThreshold: Int32 = 128 << 10

    static func configure() {
        if getenv("MALLOC_ARENA_MAX") == nil { _ = zapper_malloc_limit_arenas(arenas) }
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = zapper_malloc_fix_mmap_threshold(mmapThreshold) }
    }
}
