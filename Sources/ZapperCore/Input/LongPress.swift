/// A key that means one thing pressed and another held: OK in the channel list or the guide,
/// and Info (a gamepad's north button), held for `after` milliseconds add or remove a
/// favourite. The short meaning waits for the release (it happens then); the long one
/// happens once, while the key is still down.
public struct LongPress: Sendable, Equatable {
    public static let after = 700

    private var held: (key: String, action: Action, since: Int, fired: Bool)?

    public init() {}

    public static func == (a: LongPress, b: LongPress) -> Bool {
        a.held?.key == b.held?.key && a.held?.action == b.held?.action && a.held?.since == b.held?.since && a.held?.fired == b.held?.fired
    }

    /// Starts watching `key`, pressed now for `action`.
    public mutating func press(key: String, action: Action, now: Int) {
        held = (key, action, now, false)
    }

    /// Whether `key` is the one being watched.
    public func watches(_ key: String) -> Bool { held?.key == key }

    /// The key is up: its short action, unless the long one already happened.
    public mutating func release(key: String) -> Action? {
        guard let watched = held, watched.key == key else { return nil }
        held = nil
        return watched.fired ? nil : watched.action
    }

    /// The held action, once, when it has been held long enough.
    public mutating func due(now: Int) -> Action? {
        guard let watched = held, !watched.fired, now - watched.since >= Self.after else { return nil }
        held?.fired = true
        return watched.action
    }

    /// When `due` next has something (nil: nothing held).
    public var nextDeadline: Int? {
        guard let watched = held, !watched.fired else { return nil }
        return watched.since + Self.after
    }
}
