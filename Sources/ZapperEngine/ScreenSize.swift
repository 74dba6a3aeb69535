import Synchronization
import ZapperCore

/// The screen's size as the compositor last drew it, for the sessions fetching the channels:
/// a variant larger than what fills the screen is not fetched (`HLSLiveSession`'s `screen`).
/// Set from the display thread, read from the sessions' tasks.
public final class ScreenSize: Sendable {
    private let size = Mutex<HLSResolution?>(nil)

    public init() {}

    /// nil before the screen was ever drawn.
    public var current: HLSResolution? { size.withLock { $0 } }

    func set(width: Int, height: Int) {
        size.withLock { $0 = HLSResolution(width: width, height: height) }
    }
}
