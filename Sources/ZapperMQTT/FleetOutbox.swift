import Foundation

/// What waits to be published, bounded: messages in order (at most `capacity`; a message
/// that finds it full is dropped and counted), and the newest state alone (a state that
/// comes before the last was sent replaces it). One thread (`FleetLink`'s) takes them.
final class FleetOutbox: @unchecked Sendable {
    enum Item: Sendable {
        /// The broker accepted the connection: subscribe, say online, publish discovery and the state.
        case connected
        case message(topic: String, payload: [UInt8], retain: Bool)
        /// A screenshot written to `path`: published, or PUT to `upload`; then the command's reply.
        case screenshot(path: String, upload: URL?, payload: [UInt8])
        /// After the replies before it: end the loop to start again.
        case reload
    }

    static let capacity = 256
    private let condition = NSCondition()
    private var items: [Item] = []
    private var state: [UInt8]?
    private var stopping = false
    private(set) var dropped = 0

    /// False when the outbox was full (the item is dropped) or is stopping.
    @discardableResult
    func post(_ item: Item) -> Bool {
        condition.withLock {
            guard !stopping, items.count < Self.capacity else {
                dropped += 1
                return false
            }
            items.append(item)
            condition.signal()
            return true
        }
    }

    func post(state payload: [UInt8]) {
        condition.withLock {
            state = payload
            condition.signal()
        }
    }

    /// No more items after those already in and `last` (taken in even when full: the goodbye);
    /// `take` returns nil once they are taken.
    func stop(last: Item? = nil) {
        condition.withLock {
            if let last, !stopping { items.append(last) }
            stopping = true
            condition.signal()
        }
    }

    /// Waits for work: the items in order and the newest state (nil: none new); nil once stopped and empty.
    func take() -> (items: [Item], state: [UInt8]?)? {
        condition.withLock {
            while items.isEmpty, state == nil, !stopping { condition.wait() }
            if items.isEmpty, state == nil, stopping { return nil }
            defer {
                items.removeAll()
                state = nil
            }
            return (items, state)
        }
    }
}
