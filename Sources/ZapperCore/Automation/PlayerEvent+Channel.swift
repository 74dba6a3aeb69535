extension PlayerEvent {
    /// The channel the event is about (its `channel` field); nil for the events that have none.
    public var channel: Int? {
        switch self {
        case let .tune(channel, _, _, _), let .interstitialShown(channel), let .firstFrame(channel, _, _, _, _),
             let .interstitialDismissed(channel, _), let .audioStarted(channel, _), let .loadFailed(channel, _),
             let .loadRecovered(channel, _), let .sourceFailover(channel, _, _, _), let .stalled(channel, _),
             let .frozen(channel, _), let .black(channel, _), let .subtitlesFailed(channel, _, _), let .audioFailed(channel, _),
             let .audio(channel, _), let .subtitles(channel, _), let .subtitle(channel, _), let .subtitleBitmap(channel, _, _),
             let .locked(channel, _), let .pinRejected(channel, _, _), let .unlocked(channel, _), let .cue(channel, _),
             let .favourite(channel, _), let .guideOpened(channel), let .guideFocus(channel, _, _), let .reminder(channel, _, _),
             let .timeshift(channel, _, _, _):
            channel
        case .key, .soundLost, .soundBack, .volume, .panelOpened, .panelClosed, .guideLoaded, .offline, .schedule, .standby,
             .guideClosed, .picture, .deinterlace, .lipSync, .snapshot, .crashLoop, .frame, .flip:
            nil
        }
    }
}
