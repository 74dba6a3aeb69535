import Foundation
import Synchronization
import ZapperCore

/// What every view of one fetcher's pool shares (`HTTPFetcher.with`).
final class FetchSettings: Sendable {
    /// Refuse local addresses (`FetchPolicy.isLocal`): `[network] block-private-addresses`.
    let blocksPrivateAddresses = Atomic<Bool>(false)
    /// The User-Agent when a channel names none: `[network] user-agent`, else `Zapper/<version>`.
    let userAgent = Mutex(FetchSettings.defaultUserAgent)
    /// The EXT-X-DEFINE variables of recent master playlists, by rendition URI (`HTTPFetcher.remember`).
    let masterVariables = RecentlyUsed<URL, HLSVariables>(capacity: 64)

    static let defaultUserAgent = "Zapper/\(ZapperVersion.current)"
}
