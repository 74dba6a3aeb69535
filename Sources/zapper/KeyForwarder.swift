import Synchronization
import ZapperCore

/// Where the input thread's keys go: nowhere until the player exists (nothing is on the screen
/// to act on yet), then to the player. Lets the input devices open while the display and the
/// overlay are set up, instead of after them.
final class KeyForwarder: Sendable {
    private let target = Mutex<(@Sendable (KeyEvent) -> Void)?>(nil)

    /// Sends `key` on, or drops it while there is no player yet.
    @Sendable func send(_ key: KeyEvent) {
        target.withLock { $0 }?(key)
    }

    /// From now on, keys go to `sink`.
    func deliver(to sink: @escaping @Sendable (KeyEvent) -> Void) {
        target.withLock { $0 = sink }
    }
}
