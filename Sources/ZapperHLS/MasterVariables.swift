import Foundation
import ZapperCore

/// A media playlist that EXT-X-DEFINE IMPORTs takes the variables of the master
/// playlist it was loaded from. A session loads its variants' playlists itself;
/// an audio or subtitle rendition is followed by a session or track of its own,
/// started with only the rendition's URI. The master's session leaves its
/// variables here, by the URIs of its renditions, on the pool all of them share
/// (every view of one fetcher); the rendition's session finds them by its URL.
extension HTTPFetcher {
    /// Keeps `master`'s variables for its renditions, when it has any.
    func remember(_ master: HLSMasterPlaylist) {
        guard !master.variables.isEmpty else { return }
        for uri in Set(master.renditions.compactMap(\.uri)) {
            settings.masterVariables.insert(master.variables, for: uri)
        }
    }

    /// The variables of the master playlist that listed `url` as a rendition; nil: none known.
    func masterVariables(for url: URL) -> HLSVariables? {
        settings.masterVariables[url]
    }
}
