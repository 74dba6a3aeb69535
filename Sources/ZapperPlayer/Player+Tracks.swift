import ZapperCore

/// The playing channel's audio languages and subtitles, as the panel lists
/// them; the viewer's choice is remembered per channel.
extension Player {
    func audioChoices() -> [PanelChoice] {
        guard let playback else { return [] }
        let renditions = playback.tracks.audioRenditions
        let playing = playback.tracks.playingAudio
        return renditions.map { rendition in
            PanelChoice(label: rendition.name, detail: rendition.language, isCurrent: rendition == playing)
        }
    }

    func chooseAudio(_ index: Int) {
        guard let playback else { return }
        let renditions = playback.tracks.audioRenditions
        guard renditions.indices.contains(index) else { return }
        // Its language, unless another track shares it (an audio description): then its name.
        let language = AudioTrackPick.remembered(index, in: renditions.map(\.audioTrack)) ?? renditions[index].name
        playback.chooseAudio(language: language)
        keeper.change { $0.audio[playback.channel.stateKey] = language }
        log.emit(.audio(channel: playback.channel.number, language: language))
    }

    func subtitleChoices() -> [PanelChoice] {
        let renditions = playback?.tracks.subtitleRenditions ?? []
        let captions = playback?.tracks.captionTracks ?? []
        let current = playback.flatMap { wantedSubtitles(in: renditions, captions: captions, for: $0.channel) }
        return [PanelChoice(label: "Off", isCurrent: current == nil)] + renditions.enumerated().map { index, rendition in
            PanelChoice(label: rendition.name, detail: rendition.language, isCurrent: current == .rendition(index))
        } + captions.enumerated().map { index, track in
            // Closed captions go by their service ("CC1"), with the master's name and language.
            let detail = [track.name == track.channel.instreamID ? nil : track.name, track.language].compactMap { $0 }
            return PanelChoice(label: track.channel.instreamID, detail: detail.isEmpty ? nil : detail.joined(separator: ", "),
                               isCurrent: current == .caption(index))
        }
    }

    /// Item 0 is Off; then the renditions in order; then the closed captions.
    func chooseSubtitles(_ index: Int) {
        guard let playback else { return }
        let renditions = playback.tracks.subtitleRenditions
        let captions = playback.tracks.captionTracks
        let choice: String
        if renditions.indices.contains(index - 1) {
            choice = renditions[index - 1].language ?? renditions[index - 1].name
        } else if captions.indices.contains(index - 1 - renditions.count) {
            choice = captions[index - 1 - renditions.count].channel.instreamID
        } else {
            choice = ZapperState.subtitlesOff
        }
        keeper.change { $0.subtitles[playback.channel.stateKey] = choice }
        log.emit(.subtitles(channel: playback.channel.number, language: choice))
    }

    enum SubtitleChoice: Equatable {
        case rendition(Int)
        case caption(Int)
    }

    /// The subtitles remembered for `channel` (nil: none). With captions-when-muted,
    /// the first closed captions show while the sound is muted and nothing else is chosen.
    private func wantedSubtitles(in renditions: [HLSRendition], captions: [CaptionTrack], for channel: LineupChannel) -> SubtitleChoice? {
        let wanted = keeper.state.subtitles[channel.stateKey]
        if let wanted, wanted != ZapperState.subtitlesOff {
            if let service = CaptionChannel(instreamID: wanted), let index = captions.firstIndex(where: { $0.channel == service }) {
                return .caption(index)
            }
            if let index = renditions.firstIndex(where: { $0.matches(language: wanted) }) { return .rendition(index) }
        }
        if options.config.captionsWhenMuted, !captions.isEmpty, audio.level.muted { return .caption(0) }
        // Nobody chose: the box's subtitle languages, renditions before closed captions.
        guard wanted == nil else { return nil }
        let languages = renditions.map(\.language) + captions.map(\.language)
        return SubtitlePreference.pick(languages, preferred: options.config.subtitleLanguages).map {
            $0 < renditions.count ? .rendition($0) : .caption($0 - renditions.count)
        }
    }

    /// Follows the chosen subtitles of the playing channel and picks the lines due now.
    func subtitleTick() {
        guard let playback, !awaitingFirstPicture, let start = playback.tracks.startSequence else {
            subtitles = nil
            subtitleLines = []
            return
        }
        let renditions = playback.tracks.subtitleRenditions
        let captions = playback.tracks.captionTracks
        let choice = wantedSubtitles(in: renditions, captions: captions, for: playback.channel)
        var wanted: HLSRendition?
        var caption: CaptionChannel?
        switch choice {
        case .rendition(let index): wanted = renditions[index]
        case .caption(let index): caption = captions[index].channel
        case nil: break
        }
        playback.chooseCaptions(caption)
        if subtitles?.channel != playback.channel.number || subtitles?.rendition != wanted {
            subtitles = wanted.flatMap { rendition in
                rendition.uri.map { SubtitlePlayer(channel: playback.channel.number, rendition: rendition, url: $0, stream: playback,
                                                startSequence: start, log: log) }
            }
        }
        guard subtitles != nil || caption != nil, let clock = audio.clock else {
            subtitleLines = []
            return
        }
        let lines = caption != nil ? playback.captionLines(at: clock) : subtitles?.lines(at: clock, tracks: playback.tracks) ?? []
        if lines != subtitleLines, !lines.isEmpty {
            log.emit(.subtitle(channel: playback.channel.number, text: lines.joined(separator: "\n")))
        }
        subtitleLines = lines
    }
}
