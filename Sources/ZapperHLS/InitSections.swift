import Foundation
import ZapperCore

/// The initialization sections (EXT-X-MAP) of one session: each fetched
/// once per URI, byte range and key (decrypted when a key applies to it),
/// and handed on before every segment that needs it, so each segment's
/// demuxer opens on `moov` then `moof`.
final class InitSections: Sendable {
    struct Failure: Error, Sendable, CustomStringConvertible, PlaybackFailureConvertible {
        var url: String
        var kind: PlaybackFailure.Kind
        var reason: String
        var playbackFailure: PlaybackFailure { PlaybackFailure(kind, description) }
        var description: String { "initialization section \(url): \(reason)" }
    }

    private let fetcher: HTTPFetcher
    private let keys: SegmentKeys
    private let cache: RecentlyUsed<HLSInitSection, [UInt8]>

    /// `keys`: the session's, so a key shared with its segments is fetched once.
    init(fetcher: HTTPFetcher, keys: SegmentKeys? = nil, capacity: Int = 4) {
        self.fetcher = fetcher
        self.keys = keys ?? SegmentKeys(fetcher: fetcher)
        cache = RecentlyUsed(capacity: capacity)
    }

    func bytes(_ section: HLSInitSection) async throws(Failure) -> [UInt8] {
        if let cached = cache[section] { return cached }
        let bytes: [UInt8]
        do {
            bytes = try await fetcher.bytes(section.uri, byteRange: section.byteRange, limit: 4 << 20)
        } catch {
            throw Failure(url: section.uri.absoluteString, kind: HTTPFailureKind.kind(error), reason: HTTPFetcher.reason(error))
        }
        guard !bytes.isEmpty else { throw Failure(url: section.uri.absoluteString, kind: .invalid, reason: "empty") }
        let plain = try await decrypted(bytes, section)
        cache.insert(plain, for: section)
        return plain
    }

    private func decrypted(_ bytes: [UInt8], _ section: HLSInitSection) async throws(Failure) -> [UInt8] {
        guard let key = section.key else { return bytes }
        guard key.isPlayable, let keyURL = key.uri, let iv = key.iv else {
            throw Failure(url: section.uri.absoluteString, kind: .unsupported(.encryption), reason: "encrypted with METHOD=\(key.method.name), which this client cannot decrypt")
        }
        do {
            var decryptor = try SegmentDecryptor(key: try await keys.key(keyURL), iv: iv)
            return [UInt8](try decryptor.update(bytes) + (try decryptor.finish()))
        } catch {
            throw Failure(url: section.uri.absoluteString, kind: HTTPFailureKind.kind(error), reason: "\(error)")
        }
    }
}
