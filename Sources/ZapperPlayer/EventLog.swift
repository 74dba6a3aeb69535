import Dispatch
import Foundation
import Synchronization
import ZapperCore

/// The event log (`--events`, listed in Sources/zapper/README.md): JSON lines with milliseconds since start,
/// written to `--events FILE` as they happen; while a script runs, the newest are kept in
/// memory for its `wait-event` (a box runs for months: not all of them; and none at all when
/// no script runs, about six a channel change otherwise).
public final class EventLog: Sendable {
    /// The clock's monotonic seconds when the log began.
    private let start: Double
    private let clock: any PlayerClock
    /// The events kept, and how many came before the first of them.
    private let state = Mutex<(kept: [Event], dropped: Int)>(([], 0))
    /// How many of the newest events are kept at least (twice as many at most); 0: none.
    private let keeping: Int
    /// A script's `wait-event` looks among the events since its last wait, once each turn of
    /// the frame loop: a few at a time. (4,096 to 8,192 were kept before, with or without a script.)
    public static let kept = 512
    private let file: FileHandle?
    /// Called with each event as it is emitted, on the emitting thread (metrics, MQTT):
    /// each must only take note and return, never block.
    private let observers = Mutex<[@Sendable (PlayerEvent, Event) -> Void]>([])

    /// `keeping`: how many of the newest events `first(_:after:)` must find (a script's
    /// `wait-event`); 0 when nothing waits for one.
    public init(path: String?, keeping: Int = EventLog.kept, clock: any PlayerClock = SystemClock()) throws {
        self.clock = clock
        self.keeping = max(keeping, 0)
        start = clock.monotonic
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw PlayerError("\(path): cannot write the event log")
            }
            file = handle
        } else {
            file = nil
        }
    }

    /// Milliseconds since the log began.
    public var now: Int { milliseconds(atMonotonic: clock.monotonic) }

    /// The log's milliseconds at a CLOCK_MONOTONIC time in seconds (a page flip's timestamp).
    public func milliseconds(atMonotonic seconds: Double) -> Int {
        Int(((seconds - start) * 1000).rounded(.down))
    }

    /// Writes the event to the log, and its line (if it has one) to stderr: the one place both happen.
    @discardableResult
    public func emit(_ playerEvent: PlayerEvent) -> Event {
        let event = Event(milliseconds: now, name: playerEvent.name.rawValue, fields: playerEvent.fields)
        if let line = playerEvent.line { Player.say(line) }
        state.withLock { log in
            guard keeping > 0 else {
                log.dropped += 1
                return
            }
            log.kept.append(event)
            if log.kept.count > 2 * keeping {
                log.kept.removeFirst(keeping)
                log.dropped += keeping
            }
        }
        file?.write(Data((event.jsonLine + "\n").utf8))
        for observer in observers.withLock({ $0 }) { observer(playerEvent, event) }
        return event
    }

    /// Adds a watcher of every event from now on (see `observers`).
    public func observe(_ observer: @escaping @Sendable (PlayerEvent, Event) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// The newest events (at least the last `keeping`).
    public var events: [Event] { state.withLock { $0.kept } }

    /// How many events there have been: a mark for `first(_:after:)`.
    public var count: Int { state.withLock { $0.kept.count + $0.dropped } }

    /// The first event of that name emitted after the mark (among those still kept).
    public func first(_ name: String, after mark: Int) -> Event? {
        state.withLock { log in log.kept.dropFirst(max(0, mark - log.dropped)).first { $0.name == name } }
    }
}

public struct PlayerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
