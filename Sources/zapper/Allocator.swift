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
/// 6.8, 1.0 and 3.2 MB per 1,000 changes. Four it is (room for a box with more cores).
/// Playing 1080p (`zapper-bench playback --only zapper --seconds 30`) the CPU showed no
/// cost clearly above the runs' spread (README, "Soak"). `MALLOC_ARENA_MAX` in the environment
/// still wins, for measuring.
enum Allocator {
    static let arenas: Int32 = 4

    static func configure() {
        if getenv("MALLOC_ARENA_MAX") == nil { _ = zapper_malloc_limit_arenas(arenas) }
    }
}
