import Foundation
import ZapperCore

/// Channel logos from the lineup's `tvg-logo`, each fetched once in the
/// background and kept; while a logo is missing the card draws the channel's
/// initials instead. A fetch that fails is said once and tried again
/// `retryAfter` later (a box runs for months: an origin down at start must
/// not leave initials for good), never more often. When the loader kept a copy
/// from an earlier run (a box starting offline), the copy is shown meanwhile.
final class LogoStore: @unchecked Sendable {
    private let lock = NSLock()
    private var logos: [URL: [UInt8]] = [:]
    /// Arrived logos, oldest first: past `keptBytes` the oldest are let go (fetched again when asked).
    private var arrivalOrder: [URL] = []
    private var logoBytes = 0
    /// Bytes of logos kept (the panel of a 10,000-channel lineup asks for every logo).
    static let keptBytes = 16 << 20
    /// Bytes one logo may have.
    static let logoLimit = 256 << 10
    /// Fetches under way or done, and failed ones with when they may be tried again.
    private var asked: Set<URL> = []
    private var failedUntil: [URL: ContinuousClock.Instant] = [:]
    private var said: Set<URL> = []
    /// Logos shown from a kept copy, tried again every `retryAfter` until a fetch works.
    private var copies: Set<URL> = []
    private let loader: any ByteLoader
    private let retryAfter: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let say: @Sendable (String) -> Void

    /// `now` is the clock the retry period is measured on (a test moves it by hand).
    init(loader: any ByteLoader, retryAfter: Duration = .seconds(300), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
         say: @escaping @Sendable (String) -> Void = Player.say) {
        self.loader = loader
        self.retryAfter = retryAfter
        self.now = now
        self.say = say
    }

    /// How many logos have arrived: changes when something drawn with initials could now have its logo.
    var arrived: Int { lock.withLock { arrivals } }
    private var arrivals = 0

    /// Whether some logo on show is a kept copy (its URL could not be fetched yet).
    var showsCopies: Bool { lock.withLock { !copies.isEmpty } }

    /// The logo's bytes if they are here; otherwise starts fetching them unless that is under way
    /// or failed less than `retryAfter` ago (as for a kept copy on show).
    func png(for channel: LineupChannel) -> [UInt8]? {
        guard let url = channel.logo else { return nil }
        // A failed try waits `retryAfter` from when it started, however long it took to fail.
        let started = now()
        let (known, fetch) = lock.withLock { () -> ([UInt8]?, Bool) in
            if let bytes = logos[url] {
                guard copies.contains(url), let until = failedUntil[url], started >= until else { return (bytes, false) }
                failedUntil[url] = started.advanced(by: retryAfter)  // one try at a time
                return (bytes, true)
            }
            if let until = failedUntil[url] {
                guard started >= until else { return (nil, false) }
                failedUntil[url] = nil
                asked.remove(url)
            }
            return (nil, asked.insert(url).inserted)
        }
        if fetch {
            Task.detached { [weak self, loader] in
                do {
                    let bytes = try await loader.bytes(url, limit: Self.logoLimit)
                    self?.keep(bytes, for: url)
                } catch {
                    self?.failed(url, channel: channel, startedAt: started, error: error)
                }
            }
        }
        return known
    }

    /// Keeps a logo (`copy`: a kept copy standing in for a fetch that failed), letting the oldest go past `keptBytes`.
    private func keep(_ bytes: [UInt8], for url: URL, copy: Bool = false) {
        lock.withLock {
            if let old = logos.updateValue(bytes, forKey: url) {
                logoBytes -= old.count
                arrivalOrder.removeAll { $0 == url }
            }
            if copy { copies.insert(url) } else { copies.remove(url) }
            arrivals += 1
            arrivalOrder.append(url)
            logoBytes += bytes.count
            while logoBytes > Self.keptBytes, arrivalOrder.count > 1 {
                let oldest = arrivalOrder.removeFirst()
                logoBytes -= logos.removeValue(forKey: oldest)?.count ?? 0
                asked.remove(oldest)
                copies.remove(oldest)
                failedUntil[oldest] = nil
            }
        }
    }

    private func failed(_ url: URL, channel: LineupChannel, startedAt started: ContinuousClock.Instant, error: any Error) {
        let (first, shown) = lock.withLock { () -> (Bool, Bool) in
            failedUntil[url] = started.advanced(by: retryAfter)
            return (said.insert(url).inserted, logos[url] != nil)
        }
        let copy = shown ? nil : loader.keptCopy(of: url, limit: Self.logoLimit)
        if let copy { keep(copy, for: url, copy: true) }
        if first {
            let meanwhile = shown || copy != nil ? "the copy kept from an earlier fetch is shown" : "its initials are shown"
            say("channel \(channel.number)'s logo \(url.absoluteString): \(error); "
                + "\(meanwhile), and the logo is tried again every \(retryAfter.components.seconds) s")
        }
    }
}
