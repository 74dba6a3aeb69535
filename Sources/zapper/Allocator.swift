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
/// Large blocks get pages of their own, always: glibc starts at 128 KiB but raises the
/// threshold each time such a block is freed, up to 32 MiB: decoded pictures, a warm
/// neighbour's decoder (opened for each head it keeps) and segment bodies then land in the
/// arenas, and the holes they leave stay resident. Playing 1080p with both neighbours warm
/// (one-thread decoder, release build, VmRSS from 20 to 44 s, `MALLOC_MMAP_THRESHOLD_` set
/// for the run): 180-182 MB with the moving threshold, 165-166 MB fixed at 128 KiB, 171-173 MB
/// at 256 KiB; glibc's own statistics showed 21.5 MB free inside the arenas before, under 4
/// after. The CPU over those runs stayed within their spread.
///
/// The threshold is 32 KiB while channels change (`changing()`) and 64 KiB once a channel has
/// played a few seconds (`atRest()`, from `ArenaTrim`). A change opens demuxers and decoders
/// and fetches playlists and segment heads on many threads at once: with 128 KiB their blocks
/// of 32 to 128 KiB spread the main heap, and the long-lived blocks placed among them kept its
/// pages resident after the trim. `zapper-bench soak --flips 1000 --dwell 200 --every 100`
/// (release builds, 2026-11-29, one run each; main heap at the start → at the readings, RSS
/// after 1,000 changes): 128 KiB always 9.0 → 12.2-14.2 MB, +2.7 MB; 32 KiB always 5.7 → 6.5-6.9,
/// +0.8; 32 KiB changing and 64 KiB at rest 5.1 → 6.5-7.1, +1.6, and again 5.9 → 7.6-8.1, +2.1
/// (`heaptrack`: the live data grew 0.4 MB). 32 KiB always cost playing 1080p 0.6 to 3.5 points
/// of a core (`zapper-bench playback --only zapper --seconds 30`, five pairs of runs); 64 KiB
/// against 128 KiB, three pairs: 30.3, 33.8 and 29.5 % against 29.9, 32.1 and 31.2 %, RSS 138
/// against 139 MB.
enum Allocator {
    static let arenas: Int32 = 1
    /// Blocks from this size up get pages of their own at rest,
    static let mmapThreshold: Int32 = 64 << 10
    /// and from this size while channels change.
    static let changingMmapThreshold: Int32 = 32 << 10
    /// False when `MALLOC_MMAP_THRESHOLD_` in the environment sets the threshold (for measuring).
    private static let ownsThreshold = getenv("MALLOC_MMAP_THRESHOLD_") == nil

    static func configure() {
        if getenv("MALLOC_ARENA_MAX") == nil { _ = zapper_malloc_limit_arenas(arenas) }
        atRest()
    }

    /// A channel change is under way.
    static func changing() {
        if ownsThreshold { _ = zapper_malloc_fix_mmap_threshold(changingMmapThreshold) }
    }

    /// A channel has played for a while.
    static func atRest() {
        if ownsThreshold { _ = zapper_malloc_fix_mmap_threshold(mmapThreshold) }
    }
}
