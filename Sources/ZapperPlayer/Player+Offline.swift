import ZapperCore

/// Offline: what the box shows when its lineup, guide or logos could not be fetched and
/// the copies kept from earlier fetches stand in. It says so once when that begins and once
/// when it ends (the `offline` event; the metric and a fleet follow it), and the overlay shows
/// a small badge meanwhile. Each copy is fetched again by itself until a fetch works.
extension Player {
    /// How often what stands in is looked at (ms): it changes at a fetch, minutes apart.
    static let offlineCheckMilliseconds = 500

    /// Which copies stand in now: `lineup`, `guide`, `logos`.
    var copiesStandingIn: [String] {
        var copies: [String] = []
        if lineupFromCopy { copies.append("lineup") }
        if guide?.showsCopy == true { copies.append("guide") }
        if logos.showsCopies { copies.append("logos") }
        return copies
    }

    /// Whether the badge is up.
    var isOffline: Bool { !offlineCopies.isEmpty }

    /// Tells the loop (from any thread) that a fetch of the lineup worked again: its copy no longer stands in.
    public var lineupFetched: @Sendable () -> Void { { [inbox] in inbox.post(.lineupFetched) } }

    func offlineTick(now: Int) {
        guard now >= offlineCheckDue else { return }
        offlineCheckDue = now + Self.offlineCheckMilliseconds
        let copies = copiesStandingIn
        guard copies != offlineCopies else { return }
        offlineCopies = copies
        log.emit(.offline(on: !copies.isEmpty, copies: copies))
    }
}
