import ZapperCore

/// The event log's fields as the tests of the real binary read them: typed, each from the events that have it (nil from others).
extension LoggedEvent {
    /// The channel the event is about (`PlayerEvent.channel`).
    var channel: Int? { event.channel }

    /// The failure of `load-failed`, `source-failover` and `audio-failed`. Read back, only its
    /// `name` (the logged `kind`) and `detail` (`error`, `reason`) are what zapper had.
    var failure: PlaybackFailure? {
        switch event {
        case let .loadFailed(_, failure), let .sourceFailover(_, _, _, failure), let .audioFailed(_, failure): failure
        default: nil
        }
    }

    /// The language chosen: `audio`, `subtitles`.
    var language: String? {
        switch event {
        case let .audio(_, language), let .subtitles(_, language): language
        default: nil
        }
    }

    /// How the card ended: `interstitial-dismissed`.
    var result: InterstitialResult? {
        if case let .interstitialDismissed(_, result) = event { result } else { nil }
    }
}

extension LaunchedZapper.Run {
    /// `--trace-frames`: a picture put on screen (`frame`).
    struct Frame {
        var milliseconds: Int
        var pts: Int
        var clock: Int
        var luma: Int
    }

    struct Tune {
        var milliseconds: Int
        var channel: Int
        var reason: TuneReason
        var warm: Bool
    }

    /// The pictures put on screen, in order.
    var frames: [Frame] {
        events.compactMap {
            if case let .frame(pts, clock, luma) = $0.event { Frame(milliseconds: $0.milliseconds, pts: pts, clock: clock, luma: luma) } else { nil }
        }
    }

    /// The tunes, in order.
    var tunes: [Tune] {
        events.compactMap {
            if case let .tune(channel, _, reason, warm) = $0.event {
                Tune(milliseconds: $0.milliseconds, channel: channel, reason: reason, warm: warm)
            } else { nil }
        }
    }

    /// The paths of the snapshots taken, in order.
    var snapshotPaths: [String] { events.compactMap { if case let .snapshot(path) = $0.event { path } else { nil } } }

    /// The texts of the text subtitles shown, in order (a DVB page has none).
    var subtitleTexts: [String] { events.compactMap { if case let .subtitle(_, text) = $0.event { text } else { nil } } }
}
