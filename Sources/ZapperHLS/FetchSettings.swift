import Synchronization
import ZapperCore

/// What every view of one fetcher's pool shares (`HTTPFetcher.with`).
final class FetchSettings: Sendable {
    /// Refuse local addresses (`FetchPolicy.isLocal`): `[network] block-private-addresses`.
    let blocksPrivateAddresses = Atomic<Bool>(false)
    /// The User-Agent when a channel names none: `[network] user-agent`, else `Zapper/<version>`.
    let userAgent = Mutex(FetchSettings.defaultUserAgent)

    static let defaultUserAgent = "Zapper/\(ZapperVersion.current)"
}
