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
        let language = renditions[index].language ?? renditions[index].name
        playback.chooseAudio(language: language)
        keeper.change { $0.audio[playback.channel.stateKey] = language }
        log.emit(.audio(channel: playback.channel.number, language: language))
    }

    func subtitleChoices() -> [PanelChoice] {
        let renditions = playback?.tracks.subtitleRenditions ?? []
        let current = playback.flatMap { wantedSubtitles(in: renditions, for: $0.channel) }
        return [PanelChoice(label: "Off", isCurrent: current == nil)] + renditions.enumerated().map { index, rendition in
            PanelChoice(label: rendition.name, detail: rendition.language, isCurrent: index == current)
        }
    }

    /// Item 0 is Off; the others are the renditions in order.
    func chooseSubtitles(_ index: Int) {
        guard let playback else { return }
        let renditions = playback.tracks.subtitleRenditions
        let choice = index == 0 || !renditions.indices.contains(index - 1)
            ? ZapperState.subtitlesOff : renditions[index - 1].language ?? renditions[index - 1].name
        keeper.change { $0.subtitles[playback.channel.stateKey] = choice }
        log.emit(.subtitles(channel: playback.channel.number, language: choice))
    }

    /// The index of the subtitles remembered for `channel`, nil for none.
    private func wantedSubtitles(in renditions: [HLSRendition], for channel: LineupChannel) -> Int? {
        guard let wanted = keeper.state.subtitles[channel.stateKey], wanted != ZapperState.subtitlesOff else { return nil }
        return renditions.firstIndex { $0.matches(language: wanted) }
    }

    /// Follows the chosen subtitles of the playing channel and picks the lines due now.
    func subtitleTick() {
        guard let playback, !awaitingFirstPicture, let start = playback.tracks.startSequence else {
            subtitles = nil
            subtitleLines = []
            return
        }
        let renditions = playback.tracks.subtitleRenditions
        let wanted = wantedSubtitles(in: renditions, for: playback.channel).map { renditions[$0] }
        if subtitles?.channel != playback.channel.number || subtitles?.rendition != wanted {
            subtitles = wanted.flatMap { rendition in
                rendition.uri.map { SubtitlePlayer(channel: playback.channel.number, rendition: rendition, url: $0, stream: playback,
                                                startSequence: start, log: log) }
            }
        }
        guard let subtitles, let clock = audio.clock else {
            subtitleLines = []
            return
        }
        let lines = subtitles.lines(at: clock, tracks: playback.tracks)
        if lines != subtitleLines, !lines.isEmpty {
            log.emit(.subtitle(channel: playback.channel.number, text: lines.joined(separator: "\n")))
        }
        subtitleLines = lines
    }
}
