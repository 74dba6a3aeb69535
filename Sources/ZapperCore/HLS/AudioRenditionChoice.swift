/// Which audio rendition of a variant's group plays: the first one in a
/// language the viewer asked for (tried in order), else the one the playlist
/// marks DEFAULT=YES, else the group's first. A rendition with a URI is
/// fetched from its own media playlist; one without is in the variant's own
/// stream.
extension HLSMasterPlaylist {
    /// The rendition `AudioTrackPick` chooses in the variant's audio group.
    public func audioRendition(for variant: HLSVariant, chosen: String?, preferences: AudioPreferences) -> HLSRendition? {
        let group = renditions(.audio, group: variant.audioGroup)
        return AudioTrackPick.pick(group.map(\.audioTrack), chosen: chosen, preferences: preferences).map { group[$0] }
    }

    public func audioRendition(for variant: HLSVariant, languages: [String]) -> HLSRendition? {
        let group = renditions(.audio, group: variant.audioGroup)
        for tag in languages {
            if let match = group.first(where: { $0.matches(language: tag) }) { return match }
        }
        return group.first(where: \.isDefault) ?? group.first
    }
}

extension HLSRendition {
    /// Whether this rendition is in language `tag` (its LANGUAGE; its NAME when it has none).
    public func matches(language tag: String) -> Bool {
        language.map { LanguageCode.matches($0, tag) } ?? (name == tag)
    }
}

extension HLSRendition {
    /// As the track chooser sees it.
    public var audioTrack: AudioTrackInfo {
        AudioTrackInfo(name: name, language: language, isDescription: describesVideo, isDefault: isDefault)
    }
}
