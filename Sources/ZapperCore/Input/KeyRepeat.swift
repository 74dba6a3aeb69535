/// Our own key repeat, the same for every device (the kernel's autorepeat
/// events are to be ignored): holding a repeatable key repeats its action,
/// first after `delay`, then every `slowInterval`, speeding up steadily to
/// every `fastInterval` once the key has been held `accelerateUntil`.
/// Only the key pressed last repeats. Times are milliseconds.
public struct KeyRepeat: Sendable {
    public struct Settings: Sendable, Equatable {
        public var delay = 400
        public var slowInterval = 200
        public var fastInterval = 60
        public var accelerateUntil = 2_000

        public init() {}

        /// The wait after a repeat that happened with the key held for `held`.
        public func interval(held: Int) -> Int {
            let span = max(accelerateUntil - delay, 1)
            let progress = min(max(held - delay, 0), span)
            return slowInterval - (slowInterval - fastInterval) * progress / span
        }
    }

    public let settings: Settings
    private var key: String?
    private var action: Action?
    private var pressedAt = 0
    private var dueAt: Int?
    private var repeated = false

    public init(settings: Settings = .init()) {
        self.settings = settings
    }

    /// When to call `tick` next; nil when no key repeats.
    public var nextDeadline: Int? { dueAt }

    /// A key went down. The caller performs `action` once itself (a plain press);
    /// if the action repeats, repeats follow from `tick`. Any other held key
    /// stops repeating.
    public mutating func press(key: String, action: Action, now: Int) {
        guard action.repeats else {
            stop()
            return
        }
        self.key = key
        self.action = action
        pressedAt = now
        dueAt = now + settings.delay
        repeated = false
    }

    /// A key went up. True if it had repeated: the caller then tells the tuner
    /// `.released` so that the held target is tuned.
    public mutating func release(key: String, now: Int) -> Bool {
        guard key == self.key else { return false }
        let had = repeated
        stop()
        return had
    }

    /// The repeat due by `now`, if any. A late tick yields one repeat, not a
    /// burst, and the next one is timed from `now`.
    public mutating func tick(now: Int) -> Action? {
        guard let dueAt, dueAt <= now, let action else { return nil }
        repeated = true
        self.dueAt = now + settings.interval(held: now - pressedAt)
        return action
    }

    private mutating func stop() {
        key = nil
        action = nil
        dueAt = nil
        repeated = false
    }
}
