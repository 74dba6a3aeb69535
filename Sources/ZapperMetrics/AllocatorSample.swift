/// What the memory allocator (jemalloc, in zapper) holds, read at each scrape: with the process's
/// resident memory, it tells live data (allocated) from pages the allocator has not given back
/// yet (dirty) and from memory that is not the allocator's at all (thread stacks, mappings).
public struct AllocatorSample: Sendable, Equatable {
    /// In the program's live allocations.
    public var allocated: Double
    /// In the pages holding them (allocated plus the unused room in those pages).
    public var active: Double
    /// The allocator's own bookkeeping.
    public var metadata: Double
    /// The allocator's pages in memory: all of the above, and freed pages not given back yet.
    public var resident: Double
    /// Freed pages not given back to the system yet.
    public var dirty: Double

    public init(allocated: Double, active: Double, metadata: Double, resident: Double, dirty: Double) {
        self.allocated = allocated
        self.active = active
        self.metadata = metadata
        self.resident = resident
        self.dirty = dirty
    }

    /// The `state` label's values, in the order this target's README lists them.
    public var byState: [(state: String, bytes: Double)] {
        [("allocated", allocated), ("active", active), ("metadata", metadata), ("resident", resident), ("dirty", dirty)]
    }
}
