/// `[timeshift]`: how much of a channel is kept while it is paused or played behind its live edge.
/// `[signage] timeshift-disabled` switches it off (the pause keys then do nothing).
public struct TimeshiftSettings: Sendable, Equatable {
    public var enabled = true
    /// How far behind live a channel may be kept (`minutes`).
    public var minutes = 30
    /// What the kept bytes may hold in memory (`memory-mb`): the unit's `MemoryMax` must still hold.
    public var memoryMegabytes = 192

    public static let minutesRange = 1...240
    public static let memoryRange = 16...1024

    public init() {}

    /// What a playback may keep behind live; nil when time-shift is off.
    public var budget: TimeshiftBudget? {
        enabled ? TimeshiftBudget(seconds: Double(minutes * 60), bytes: memoryMegabytes << 20) : nil
    }
}

/// The most a playback keeps fetched ahead of what it plays while it is behind live: the
/// fetcher waits for room past either bound (the stream then goes on from where it waited).
public struct TimeshiftBudget: Sendable, Equatable {
    public let seconds: Double
    public let bytes: Int

    public init(seconds: Double, bytes: Int) {
        self.seconds = seconds
        self.bytes = bytes
    }

    /// Whether another segment may be fetched with this much waiting.
    public func hasRoom(seconds waiting: Double, bytes held: Int) -> Bool {
        waiting < seconds && held < bytes
    }
}
