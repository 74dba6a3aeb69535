import Dispatch
import Foundation
import Synchronization
import ZapperCore

/// The event log of DESIGN §8: JSON lines with milliseconds since start,
/// written to `--events FILE` as they happen and kept for `wait-event`.
public final class EventLog: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds
    private let state = Mutex<[Event]>([])
    private let file: FileHandle?

    public init(path: String?) throws {
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
    public var now: Int { Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }

    /// The log's milliseconds at a CLOCK_MONOTONIC time in seconds (a page flip's timestamp).
    public func milliseconds(atMonotonic seconds: Double) -> Int {
        Int((seconds * 1e9 - Double(start)) / 1e6)
    }

    @discardableResult
    public func emit(_ name: String, _ fields: [(String, EventValue)] = []) -> Event {
        let event = Event(milliseconds: now, name: name, fields: fields)
        state.withLock { $0.append(event) }
        file?.write(Data((event.jsonLine + "\n").utf8))
        return event
    }

    /// The events emitted so far.
    public var events: [Event] { state.withLock { $0 } }

    /// How many events there are so far: a mark for `first(_:after:)`.
    public var count: Int { state.withLock { $0.count } }

    /// The first event of that name emitted after the mark.
    public func first(_ name: String, after mark: Int) -> Event? {
        state.withLock { $0.dropFirst(mark).first { $0.name == name } }
    }
}

public struct PlayerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
