import Foundation
import ZapperCore

/// RFC 8216bis: a segment marked `EXT-X-GAP` holds no media in its variant, and another
/// variant may have that time whole (a redundant copy whose encoder did not drop out, a
/// lower or higher rendition). The variants are asked in `VariantLadder.standIns` order,
/// at most `maxAsked` of them: the first whose media playlist holds the same media
/// sequence number, not a gap and not locked with a key method this client cannot use,
/// stands in. Each variant's playlist is fetched at most once per reload of the playing
/// one (a run of gaps costs one fetch per variant asked); one that fails is not asked
/// again until then.
struct GapStandIns {
    static let maxAsked = 3

    let variants: [HLSVariant]
    let ladder: VariantLadder
    let fetcher: HTTPFetcher
    /// What the media playlists may IMPORT (EXT-X-DEFINE).
    let imports: HLSVariables?
    private var playlists: [Int: HLSMediaPlaylist?] = [:]

    init(variants: [HLSVariant], ladder: VariantLadder, fetcher: HTTPFetcher, imports: HLSVariables?) {
        self.variants = variants
        self.ladder = ladder
        self.fetcher = fetcher
        self.imports = imports
    }

    /// The playing variant's playlist was loaded again: the others are fetched afresh when asked.
    mutating func reloaded() { playlists.removeAll(keepingCapacity: true) }

    /// The segment of another variant that stands in for `gap` of variant `playing`, nil when none has it.
    mutating func standIn(for gap: HLSSegment, playing: Int) async -> (segment: HLSSegment, variant: Int)? {
        for index in ladder.standIns(for: playing).prefix(Self.maxAsked) where variants.indices.contains(index) {
            guard let playlist = await playlist(index) else { continue }
            if let segment = playlist.segments.first(where: { $0.sequence == gap.sequence }), !segment.gap,
               segment.key?.isPlayable ?? true {
                return (segment, index)
            }
        }
        return nil
    }

    private mutating func playlist(_ index: Int) async -> HLSMediaPlaylist? {
        if let known = playlists[index] { return known }
        var loaded: HLSMediaPlaylist?
        if let fetched = try? await fetcher.document(variants[index].uri),
           case .media(let media)? = try? HLSParser.parse(fetched.text, url: fetched.url, masterVariables: imports) {
            loaded = media
        }
        playlists[index] = .some(loaded)
        return loaded
    }
}
