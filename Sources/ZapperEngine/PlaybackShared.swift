import Foundation
import ZapperCore
import ZapperMedia

/// Which tune a playback serves: none (nil) while it is a warm neighbour.
final class TuneTag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int?
    private var failure: PlaybackFailure?
    private var ended = false
    init(serial: Int?) { value = serial }
    var serial: Int? { lock.withLock { value } }
    func promote(to serial: Int) { lock.withLock { value = serial } }
    /// Stopped: what its cancelled fetches say is no news.
    var isEnded: Bool {
        get { lock.withLock { ended } }
        set { lock.withLock { ended = newValue } }
    }
    /// The last failure reported while warm, until a segment arrives.
    var warmFailure: PlaybackFailure? {
        get { lock.withLock { failure } }
        set { lock.withLock { failure = newValue } }
    }
}

/// The playback a session's events reach, set once it exists.
final class WeakPlayback: @unchecked Sendable {
    weak var value: ChannelPlayback?
}

/// A number shared between threads.
final class SharedDouble: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Double
    init(_ value: Double) { stored = value }
    var value: Double {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
