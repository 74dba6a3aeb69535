/// A radio channel's sound, watched as a TV channel's pictures are: with no picture, silence
/// standing in for its sound (its queue ran dry) is how a radio channel is seen to stop.
///
/// The rules: silence for `after` milliseconds in a row is told once, with its length; sound
/// again starts the count over; `reset` (a new tune, a channel that is no radio) forgets it.
public struct SoundWatch: Sendable, Equatable {
    public static let after = 3000
    private var silentSince: Int?
    private var told = false

    public init() {}

    public mutating func reset() {
        silentSince = nil
        told = false
    }

    /// The milliseconds of silence the first time they reach `after`; nil otherwise.
    public mutating func update(starved: Bool, now: Int) -> Int? {
        guard starved else {
            reset()
            return nil
        }
        let since = silentSince ?? now
        silentSince = since
        guard !told, now - since >= Self.after else { return nil }
        told = true
        return now - since
    }
}
