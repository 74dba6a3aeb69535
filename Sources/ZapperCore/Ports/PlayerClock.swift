import Dispatch
import Foundation

/// The player's time: a monotonic clock (the display's flip times are on it too)
/// and the time of day (the guide, the parental lockout). The system's on a box;
/// a virtual one that a test moves by hand.
public protocol PlayerClock: Sendable {
    /// Seconds on CLOCK_MONOTONIC.
    var monotonic: Double { get }
    /// The time of day.
    var date: Date { get }
}

/// The system's clocks.
public struct SystemClock: PlayerClock {
    public init() {}
    public var monotonic: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    public var date: Date { Date() }
}
