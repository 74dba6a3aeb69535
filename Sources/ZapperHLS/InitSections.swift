import Foundation
import ZapperCore

/// The initialization sections (EXT-X-MAP) of one session: each fetched
/// once per URI and byte range, and handed on before every segment that
/// needs it, so each segment's demuxer opens on `moov` then `moof`.
final class InitSections: Sendable {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var url: String
        var reason: String
        var description: String { "initialization section \(url): \(reason)" }
    }

    private let fetcher: HTTPFetcher
    private let cache: RecentlyUsed<HLSInitSection, [UInt8]>

    init(fetcher: HTTPFetcher, capacity: Int = 4) {
        self.fetcher = fetcher
        cache = RecentlyUsed(capacity: capacity)
    }

    func bytes(_ section: HLSInitSection) async throws(Failure) -> [UInt8] {
        if let cached = cache[section] { return cached }
        let bytes: [UInt8]
        do {
            bytes = try await fetcher.bytes(section.uri, byteRange: section.byteRange, limit: 4 << 20)
        } catch {
            throw Failure(url: section.uri.absoluteString, reason: HTTPFetcher.reason(error))
        }
        guard !bytes.isEmpty else { throw Failure(url: section.uri.absoluteString, reason: "empty") }
        cache.insert(bytes, for: section)
        return bytes
    }
}
