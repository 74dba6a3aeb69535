import Synchronization

/// A few values kept by key, the least recently used dropped first: keys
/// and initialization sections of a live stream that rotates them for days,
/// the master playlists of channels tuned lately.
final class RecentlyUsed<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    /// Most recently used last.
    private let entries = Mutex<[(key: Key, value: Value)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.value
        }
    }

    func insert(_ value: Value, for key: Key) {
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, value))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    func remove(_ key: Key) {
        entries.withLock { $0.removeAll { $0.key == key } }
    }

    var count: Int { entries.withLock { $0.count } }
}
