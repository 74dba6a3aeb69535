import Foundation
import ZapperCore

/// The AES-128 keys of one session, fetched once per key URI (through the
/// fetcher, so only http and https) and kept for the few URIs in use: a
/// stream that rotates its key every few segments for days must not grow
/// the cache.
final class SegmentKeys: Sendable {
    struct Failure: Error, Sendable, CustomStringConvertible, PlaybackFailureConvertible {
        var url: String
        var kind: PlaybackFailure.Kind
        var reason: String
        var playbackFailure: PlaybackFailure { PlaybackFailure(kind, description) }
        var description: String { "key \(url): \(reason)" }
    }

    private let fetcher: HTTPFetcher
    private let cache: RecentlyUsed<URL, [UInt8]>

    init(fetcher: HTTPFetcher, capacity: Int = 8) {
        self.fetcher = fetcher
        cache = RecentlyUsed(capacity: capacity)
    }

    func key(_ url: URL) async throws(Failure) -> [UInt8] {
        if let cached = cache[url] { return cached }
        let bytes: [UInt8]
        do {
            bytes = try await fetcher.bytes(url, limit: 1024)
        } catch {
            throw Failure(url: url.absoluteString, kind: HTTPFailureKind.kind(error), reason: HTTPFetcher.reason(error))
        }
        guard bytes.count == SegmentDecryptor.blockSize else {
            throw Failure(url: url.absoluteString, kind: .invalid, reason: "\(bytes.count) bytes, not a 16-byte AES-128 key")
        }
        cache.insert(bytes, for: url)
        return bytes
    }
}
