import Foundation
import ZapperCore

/// The master playlists of channels tuned lately, so that tuning one of them again (a number
/// typed, the last channel) starts at its media playlist: a round trip less before the first
/// picture. A master is the list of variants and renditions, which servers seldom change; a
/// remembered one that no longer leads anywhere (its first media playlist fails: a token that
/// expired, a variant gone) is forgotten and fetched again (`ChannelSession`).
///
/// Bounded: `capacity` masters of at most `maxBytes` each, none older than `maxAge` seconds.
public final class KnownMasters: Sendable {
    public struct Key: Hashable, Sendable {
        var url: String
        var headers: RequestHeaders
    }

    struct Entry: Sendable {
        var text: String
        /// The URL that answered (after redirects): relative references resolve against it.
        var answered: URL
        var at: Double
    }

    public static let shared = KnownMasters()

    let maxAge: Double
    let maxBytes: Int
    private let now: @Sendable () -> Double
    private let entries: RecentlyUsed<Key, Entry>

    public init(capacity: Int = 64, maxBytes: Int = 64 << 10, maxAge: Double = 600,
                now: @escaping @Sendable () -> Double = { HTTPFetcher.now() }) {
        entries = RecentlyUsed(capacity: capacity)
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.now = now
    }

    public static func key(_ url: URL, _ headers: RequestHeaders) -> Key {
        Key(url: url.absoluteString, headers: headers)
    }

    /// Keeps a master as fetched (a playlist too large is not kept).
    func remember(_ text: String, answered: URL, for key: Key) {
        guard text.utf8.count <= maxBytes else { return }
        entries.insert(Entry(text: text, answered: answered, at: now()), for: key)
    }

    /// The master kept for `key` and its age in seconds, if it is young enough.
    func recall(_ key: Key) -> (text: String, url: URL, age: Double)? {
        guard let entry = entries[key] else { return nil }
        let age = now() - entry.at
        guard age >= 0, age <= maxAge else {
            forget(key)
            return nil
        }
        return (entry.text, entry.answered, age)
    }

    func forget(_ key: Key) {
        entries.remove(key)
    }

    var count: Int { entries.count }
}
