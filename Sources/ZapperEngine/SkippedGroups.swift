import Synchronization

/// Groups of pictures a playback skipped because their key frame came behind the clock
/// (`CatchUp`), told apart by whose fault it was: the decoder's (later segments were
/// already waiting for it: the box was slow) or the network's (nothing was waiting: the
/// segment itself came late, as every one did for a channel played at its live edge).
/// Read from any thread while the decode thread counts.
public final class SkippedGroups: Sendable {
    private let slowDecoder = Atomic(0)
    private let lateSegment = Atomic(0)

    public init() {}

    /// Groups skipped while later segments waited: the box decoded too slowly.
    public var decoder: Int { slowDecoder.load(ordering: .relaxed) }
    /// Groups skipped with no later segment waiting: the segment came late.
    public var network: Int { lateSegment.load(ordering: .relaxed) }

    /// One more group skipped; `segmentsWaiting`: whether later segments waited for the decoder.
    func skipped(segmentsWaiting: Bool) {
        if segmentsWaiting {
            slowDecoder.wrappingAdd(1, ordering: .relaxed)
        } else {
            lateSegment.wrappingAdd(1, ordering: .relaxed)
        }
    }
}
