import Foundation
import ZapperCore
import ZapperHLS

/// Channel logos from the lineup's `tvg-logo`, each fetched once in the
/// background and kept; a logo that is missing or fails stays nil and the
/// card draws the channel's initials instead.
final class LogoStore: @unchecked Sendable {
    private let lock = NSLock()
    private var logos: [URL: [UInt8]] = [:]
    private var asked: Set<URL> = []

    /// How many logos have arrived: changes when something drawn with initials could now have its logo.
    var arrived: Int { lock.withLock { logos.count } }

    /// The logo's bytes if they are here; otherwise starts fetching them.
    func png(for channel: LineupChannel) -> [UInt8]? {
        guard let url = channel.logo else { return nil }
        let (known, fetch) = lock.withLock { () -> ([UInt8]?, Bool) in
            if let bytes = logos[url] { return (bytes, false) }
            return (nil, asked.insert(url).inserted)
        }
        if fetch {
            Task.detached { [weak self] in
                guard let bytes = try? await HTTPFetcher.shared.bytes(url) else { return }
                self?.lock.withLock { self?.logos[url] = bytes }
            }
        }
        return known
    }
}
