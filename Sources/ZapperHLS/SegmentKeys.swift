import Foundation
import Synchronization
import ZapperCore

/// The AES-128 keys of one session, fetched once per key URI (through the
/// fetcher, so only http and https) and kept for the few URIs in use: a
/// stream that rotates its key every few segments for days must not grow
/// the cache.
final class SegmentKeys: Sendable {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var url: String
        var reason: String
        var description: String { "key \(url): \(reason)" }
    }

    private let fetcher: HTTPFetcher
    private let capacity: Int
    /// Most recently used last.
    private let cache = Mutex<[(url: URL, key: [UInt8])]>([])

    init(fetcher: HTTPFetcher, capacity: Int = 8) {
        self.fetcher = fetcher
        self.capacity = capacity
    }

    func key(_ url: URL) async throws(Failure) -> [UInt8] {
        let cached = cache.withLock { entries -> [UInt8]? in
            guard let index = entries.firstIndex(where: { $0.url == url }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.key
        }
        if let cached { return cached }
        let bytes: [UInt8]
        do {
            bytes = try await fetcher.bytes(url, limit: 1024)
        } catch let failure as HTTPFetcher.Failure {
            throw Failure(url: url.absoluteString, reason: failure.status.map { "HTTP \($0)" } ?? failure.reason)
        } catch {
            throw Failure(url: url.absoluteString, reason: "\(error)")
        }
        guard bytes.count == SegmentDecryptor.blockSize else {
            throw Failure(url: url.absoluteString, reason: "\(bytes.count) bytes, not a 16-byte AES-128 key")
        }
        cache.withLock { entries in
            entries.append((url, bytes))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return bytes
    }

    var cachedCount: Int { cache.withLock { $0.count } }
}
