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
        let bitmaps = playback?.tracks.bitmapSubtitleTracks ?? []
        let current = playback.flatMap { wantedSubtitles(in: renditions, captions: captions, bitmaps: bitmaps, for: $0.channel) }
        return [PanelChoice(label: "Off", isCurrent: current == nil)] + renditions.enumerated().map { index, rendition in
            PanelChoice(label: rendition.name, detail: rendition.language, isCurrent: current == .rendition(index))
        } + captions.enumerated().map { index, track in
            // Closed captions go by their service ("CC1"), with the master's name and language.
            let detail = [track.name == track.channel.instreamID ? nil : track.name, track.language].compactMap { $0 }
            return PanelChoice(label: track.channel.instreamID, detail: detail.isEmpty ? nil : detail.joined(separator: ", "),
                               isCurrent: current == .caption(index))
        } + bitmaps.enumerated().map { index, track in
            PanelChoice(label: track.name, detail: [track.teletextPage.map { "Teletext \(String($0, radix: 16))" } ?? "DVB", track.language]
                            .compactMap { $0 }.joined(separator: ", "), isCurrent: current == .bitmap(index))
        }
    }

    /// What the state keeps for a DVB subtitle track.
    static func bitmapChoice(_ track: BitmapSubtitleTrack) -> String { "dvb:" + track.name }

    /// Item 0 is Off; then the renditions in order; then the closed captions.
    func chooseSubtitles(_ index: Int) {
        guard let playback else { return }
        let renditions = playback.tracks.subtitleRenditions
        let captions = playback.tracks.captionTracks
        let bitmaps = playback.tracks.bitmapSubtitleTracks
        let choice: String
        if renditions.indices.contains(index - 1) {
            choice = renditions[index - 1].language ?? renditions[index - 1].name
        } else if captions.indices.contains(index - 1 - renditions.count) {
            choice = captions[index - 1 - renditions.count].channel.instreamID
        } else if bitmaps.indices.contains(index - 1 - renditions.count - captions.count) {
            choice = Self.bitmapChoice(bitmaps[index - 1 - renditions.count - captions.count])
        } else {
            choice = ZapperState.subtitlesOff
        }
        keeper.change { $0.subtitles[playback.channel.stateKey] = choice }
        log.emit(.subtitles(channel: playback.channel.number, language: choice))
    }

    enum SubtitleChoice: Equatable {
        case rendition(Int)
        case caption(Int)
        case bitmap(Int)
    }

    /// The subtitles remembered for `channel` (nil: none). With captions-when-muted,
    /// the first closed captions show while the sound is muted and nothing else is chosen.
    private func wantedSubtitles(in renditions: [HLSRendition], captions: [CaptionTrack], bitmaps: [BitmapSubtitleTrack],
                                 for channel: LineupChannel) -> SubtitleChoice? {
        let wanted = keeper.state.subtitles[channel.stateKey]
        if let wanted, wanted != ZapperState.subtitlesOff {
            if let index = bitmaps.firstIndex(where: { Self.bitmapChoice($0) == wanted }) { return .bitmap(index) }
            if let service = CaptionChannel(instreamID: wanted), let index = captions.firstIndex(where: { $0.channel == service }) {
                return .caption(index)
            }
            if let index = renditions.firstIndex(where: { $0.matches(language: wanted) }) { return .rendition(index) }
        }
        if options.config.captionsWhenMuted, !captions.isEmpty, audio.level.muted { return .caption(0) }
        // Nobody chose: the box's subtitle languages, renditions before closed captions.
        guard wanted == nil else { return nil }
        let languages = renditions.map(\.language) + captions.map(\.language) + bitmaps.map(\.language)
        return SubtitlePreference.pick(languages, preferred: options.config.subtitleLanguages).map {
            $0 < renditions.count ? .rendition($0)
                : $0 < renditions.count + captions.count ? .caption($0 - renditions.count) : .bitmap($0 - renditions.count - captions.count)
        }
    }

    /// Follows the chosen subtitles of the playing channel and picks the lines due now.
    func subtitleTick() {
        guard let playback, !awaitingFirstPicture, let start = playback.tracks.startSequence else {
            subtitles = nil
            subtitleLines = []
            subtitleBitmap = nil
            return
        }
        let renditions = playback.tracks.subtitleRenditions
        let captions = playback.tracks.captionTracks
        let bitmaps = playback.tracks.bitmapSubtitleTracks
        let choice = wantedSubtitles(in: renditions, captions: captions, bitmaps: bitmaps, for: playback.channel)
        var wanted: HLSRendition?
        var caption: CaptionChannel?
        var bitmap: BitmapSubtitleTrack?
        switch choice {
        case .rendition(let index): wanted = renditions[index]
        case .caption(let index): caption = captions[index].channel
        case .bitmap(let index): bitmap = bitmaps[index]
        case nil: break
        }
        playback.chooseCaptions(caption)
        playback.chooseBitmapSubtitles(bitmap)
        let page = bitmap != nil ? audio.clock.flatMap { playback.bitmapSubtitle(at: $0) } : nil
        if let page, page != subtitleBitmap {
            log.emit(.subtitleBitmap(channel: playback.channel.number, regions: page.regions.count,
                                     canvas: "\(page.canvasWidth)x\(page.canvasHeight)"))
        }
        subtitleBitmap = page
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
