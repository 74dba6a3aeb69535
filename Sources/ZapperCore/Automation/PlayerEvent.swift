/// Every event zapper writes to its event log (`--events`: JSON lines, listed in
/// Sources/zapper/README.md, "Events"), each with its fields. Tests, the benchmarks and the image's scripts name
/// events by `EventName`, never by a string of their own.
public enum PlayerEvent: Sendable, Equatable {
    case key(name: String, action: String, waitedMilliseconds: Int)
    case tune(channel: Int, channelName: String, reason: TuneReason, warm: Bool)
    case interstitialShown(channel: Int)
    /// The tune's first picture is on screen: its size, and the bytes warm neighbours have fetched so far.
    case firstFrame(channel: Int, zapMilliseconds: Int, width: Int = 0, height: Int = 0, neighbourBytes: Int = 0)
    case interstitialDismissed(channel: Int, result: InterstitialResult)
    /// The channel's sound began to be written (`heard` false: to no device, on the system clock).
    case audioStarted(channel: Int, heard: Bool = true)
    case loadFailed(channel: Int, PlaybackFailure)
    case loadRecovered(channel: Int, gapMilliseconds: Int)
    /// Source `from` of `channel` failed while it loaded (`reason`); source `to` is tried now (both from 1).
    case sourceFailover(channel: Int, from: Int, to: Int, PlaybackFailure)
    /// No new picture for `seconds`: the channel is tuned again.
    case stalled(channel: Int, seconds: Int)
    /// New pictures kept coming, the same for `seconds` (`PictureWatch`): the channel is tuned again.
    case frozen(channel: Int, seconds: Int)
    /// New pictures kept coming, black for `seconds` (`PictureWatch`): the channel is tuned again.
    case black(channel: Int, seconds: Int)
    case soundLost(reason: String)
    case soundBack
    /// `said`: also on stderr (a track's first failed segment; a playlist retried every few seconds is the log's only).
    case subtitlesFailed(channel: Int, error: String, said: Bool)
    case audioFailed(channel: Int, PlaybackFailure)
    case volume(level: Int, muted: Bool)
    case panelOpened(row: String)
    case panelClosed(reason: PanelCloseReason)
    case audio(channel: Int, language: String)
    case subtitles(channel: Int, language: String)
    case subtitle(channel: Int, text: String)
    /// A DVB subtitle page now on screen: its regions, on its canvas (`720x576`).
    case subtitleBitmap(channel: Int, regions: Int, canvas: String)
    case picture(mode: String)
    /// Deinterlace was set in the Picture tab (`auto` or `off`).
    case deinterlace(mode: String)
    /// Lip sync was moved in the Picture tab: pictures this much earlier against the sound.
    case lipSync(milliseconds: Int)
    case locked(channel: Int, rating: String)
    case pinRejected(channel: Int, triesLeft: Int, lockoutSeconds: Int?)
    case unlocked(channel: Int, reason: String)
    case snapshot(path: String)
    /// A cue in the channel's playlist (EXT-X-DATERANGE, SCTE-35 cue tags), told once.
    case cue(channel: Int, HLSCue)
    /// The channel became a favourite (`on`), or stopped being one.
    case favourite(channel: Int, on: Bool)
    case crashLoop(exits: Int, start: Int, skipped: Int?, quarantined: [Int])
    /// A `[[schedule]]` entry (counted from 1 in the file) began or ended.
    case schedule(entry: Int, began: Bool)
    /// Standby began or ended, and why (`schedule`, `key`).
    case standby(on: Bool, reason: String)
    /// A read of the programme guide worked (`stale`: only the copy of the last good read could be had): the programmes now kept.
    case guideLoaded(programmes: Int, stale: Bool)
    /// The box began or stopped showing copies kept from earlier fetches because the real
    /// thing could not be fetched (`copies`: which of `lineup`, `guide`, `logos`; empty when back).
    case offline(on: Bool, copies: [String])
    /// The full-screen guide opened, its focus on `channel`.
    case guideOpened(channel: Int)
    case guideClosed(reason: PanelCloseReason)
    /// The guide's focus moved: the channel and the programme's start (seconds since 1970; a gap's half hour).
    case guideFocus(channel: Int, start: Int, title: String)
    /// A reminder on the programme starting at `start` (seconds since 1970) on `channel`.
    case reminder(channel: Int, start: Int, action: ReminderAction)
    /// Time-shift on `channel` changed state (`TransportLayer`): paused, playing behind live, or
    /// live; how far behind live, and the position as clock time (milliseconds since 1970).
    case timeshift(channel: Int, state: TransportLayer.State, behindMilliseconds: Int, positionMilliseconds: Int)
    /// `--trace-frames`: a presented picture's timeline time, the audio clock then (-1: none), its brightness.
    case frame(ptsMilliseconds: Int, clockMilliseconds: Int, luma: Int)
    /// `--trace-flips`: when the flip hit the screen (-1: none within 100 ms) and what drawing cost.
    case flip(flipMicroseconds: Int, scaleMicroseconds: Int, composeMicroseconds: Int)

    public enum PanelCloseReason: String, Sendable {
        case key, chosen, inactive
    }

    public enum ReminderAction: String, Sendable {
        /// Set or cleared in the guide.
        case set, cleared
        /// Its notice is up, a minute before the start ("OK to switch").
        case due
        /// The channel was tuned for it: OK on the notice, or by itself (`[reminders] switch`).
        case switched
        /// It started and nobody switched: it is gone.
        case missed
    }

    public var name: EventName {
        switch self {
        case .key: .key
        case .tune: .tune
        case .interstitialShown: .interstitialShown
        case .firstFrame: .firstFrame
        case .interstitialDismissed: .interstitialDismissed
        case .audioStarted: .audioStarted
        case .loadFailed: .loadFailed
        case .loadRecovered: .loadRecovered
        case .sourceFailover: .sourceFailover
        case .stalled: .stalled
        case .frozen: .frozen
        case .black: .black
        case .soundLost: .soundLost
        case .soundBack: .soundBack
        case .subtitlesFailed: .subtitlesFailed
        case .audioFailed: .audioFailed
        case .volume: .volume
        case .panelOpened: .panelOpened
        case .panelClosed: .panelClosed
        case .guideLoaded: .guideLoaded
        case .offline: .offline
        case .schedule: .schedule
        case .standby: .standby
        case .guideOpened: .guideOpened
        case .guideClosed: .guideClosed
        case .guideFocus: .guideFocus
        case .reminder: .reminder
        case .audio: .audio
        case .subtitles: .subtitles
        case .subtitle, .subtitleBitmap: .subtitle
        case .picture: .picture
        case .deinterlace: .deinterlace
        case .lipSync: .lipSync
        case .locked: .locked
        case .pinRejected: .pinRejected
        case .unlocked: .unlocked
        case .snapshot: .snapshot
        case .cue: .cue
        case .favourite: .favourite
        case .crashLoop: .crashLoop
        case .timeshift: .timeshift
        case .frame: .frame
        case .flip: .flip
        }
    }

    /// The fields after `t_ms` and `event`, in the order they are written.
    public var fields: [(String, EventValue)] {
        switch self {
        case let .key(name, action, waited): [("name", .string(name)), ("action", .string(action)), ("waited_ms", .int(waited))]
        case let .tune(channel, _, reason, warm): [("channel", .int(channel)), ("reason", .string(reason.rawValue)), ("warm", .bool(warm))]
        case let .interstitialShown(channel): [("channel", .int(channel))]
        case let .audioStarted(channel, heard): [("channel", .int(channel)), ("heard", .bool(heard))]
        case let .firstFrame(channel, zap, width, height, neighbourBytes):
            [("channel", .int(channel)), ("zap_ms", .int(zap)), ("width", .int(width)), ("height", .int(height)),
             ("neighbour_bytes", .int(neighbourBytes))]
        case let .interstitialDismissed(channel, result): [("channel", .int(channel)), ("result", .string(result.rawValue))]
        case let .loadFailed(channel, failure), let .audioFailed(channel, failure):
            [("channel", .int(channel)), ("error", .string(failure.detail)), ("kind", .string(failure.name))]
        case let .loadRecovered(channel, gap): [("channel", .int(channel)), ("gap_ms", .int(gap))]
        case let .sourceFailover(channel, from, to, failure):
            [("channel", .int(channel)), ("from", .int(from)), ("to", .int(to)), ("reason", .string(failure.detail)),
             ("kind", .string(failure.name))]
        case let .stalled(channel, seconds), let .frozen(channel, seconds), let .black(channel, seconds):
            [("channel", .int(channel)), ("seconds", .int(seconds))]
        case let .soundLost(reason): [("reason", .string(reason))]
        case .soundBack: []
        case let .subtitlesFailed(channel, error, _): [("channel", .int(channel)), ("error", .string(error))]
        case let .volume(level, muted): [("level", .int(level)), ("muted", .bool(muted))]
        case let .panelOpened(row): [("row", .string(row))]
        case let .panelClosed(reason), let .guideClosed(reason): [("reason", .string(reason.rawValue))]
        case let .guideOpened(channel): [("channel", .int(channel))]
        case let .guideLoaded(programmes, stale): [("programmes", .int(programmes)), ("stale", .bool(stale))]
        case let .offline(on, copies): [("on", .bool(on)), ("copies", .string(copies.joined(separator: " ")))]
        case let .schedule(entry, began): [("entry", .int(entry)), ("action", .string(began ? "began" : "ended"))]
        case let .standby(on, reason): [("on", .bool(on)), ("reason", .string(reason))]
        case let .guideFocus(channel, start, title): [("channel", .int(channel)), ("start", .int(start)), ("title", .string(title))]
        case let .reminder(channel, start, action): [("channel", .int(channel)), ("start", .int(start)), ("action", .string(action.rawValue))]
        case let .audio(channel, language), let .subtitles(channel, language):
            [("channel", .int(channel)), ("language", .string(language))]
        case let .subtitle(channel, text): [("channel", .int(channel)), ("text", .string(text))]
        case let .subtitleBitmap(channel, regions, canvas): [("channel", .int(channel)), ("regions", .int(regions)), ("canvas", .string(canvas))]
        case let .picture(mode), let .deinterlace(mode): [("mode", .string(mode))]
        case let .lipSync(milliseconds): [("ms", .int(milliseconds))]
        case let .locked(channel, rating): [("channel", .int(channel)), ("rating", .string(rating))]
        case let .pinRejected(channel, triesLeft, lockout):
            [("channel", .int(channel)), ("tries_left", .int(triesLeft))] + (lockout.map { [("lockout_s", .int($0))] } ?? [])
        case let .unlocked(channel, reason): [("channel", .int(channel)), ("reason", .string(reason))]
        case let .snapshot(path): [("path", .string(path))]
        case let .favourite(channel, on): [("channel", .int(channel)), ("on", .bool(on))]
        case let .cue(channel, cue):
            [("channel", .int(channel)), ("id", .string(cue.id)), ("kind", .string(cue.kind.rawValue))]
                + (cue.duration.map { [("duration_ms", .int(Int(($0 * 1000).rounded())))] } ?? [])
                + (cue.cueClass.map { [("class", .string($0))] } ?? [])
        case let .crashLoop(exits, start, skipped, quarantined):
            [("exits", .int(exits)), ("start", .int(start)),
             ("quarantined", .string(quarantined.map(String.init).joined(separator: ",")))] + (skipped.map { [("skipped", .int($0))] } ?? [])
        case let .timeshift(channel, state, behind, position):
            [("channel", .int(channel)), ("state", .string(state.rawValue)), ("behind_ms", .int(behind)), ("position_ms", .int(position))]
        case let .frame(pts, clock, luma): [("pts_ms", .int(pts)), ("clock_ms", .int(clock)), ("luma", .int(luma))]
        case let .flip(flip, scale, compose): [("flip_us", .int(flip)), ("scale_us", .int(scale)), ("compose_us", .int(compose))]
        }
    }

    /// What stderr says of it (`zapper: …`); nil for the events only the log keeps.
    public var line: String? {
        switch self {
        case let .tune(channel, name, _, warm): "tuning \(channel) \(name)\(warm ? " (warm)" : "")"
        case let .firstFrame(channel, zap, width, height, _): "first frame of \(channel) in \(zap) ms (\(width)x\(height))"
        case let .audioStarted(channel, heard): heard ? "sound of \(channel) started" : "sound of \(channel) decoded; no sound device plays it"
        case let .loadFailed(channel, failure): "channel \(channel): \(failure)"
        case let .loadRecovered(channel, _): "channel \(channel) is playing again"
        case let .frozen(channel, seconds): "channel \(channel): the picture has not changed for \(seconds) s; tuning it again"
        case let .black(channel, seconds): "channel \(channel): the picture has been black for \(seconds) s; tuning it again"
        case let .sourceFailover(channel, from, to, failure): "channel \(channel): source \(from) failed (\(failure)); trying source \(to)"
        case let .soundLost(reason): "sound: none (\(reason)); pictures run on the system clock"
        case let .subtitlesFailed(channel, error, said) where said: "channel \(channel): subtitles: \(error)"
        case let .volume(level, muted): muted ? "sound muted" : "volume \(level)"
        case let .locked(channel, rating): "channel \(channel) locked (rated \(rating))"
        case let .unlocked(channel, _): "channel \(channel) unlocked"
        case let .standby(on, reason): on ? "standby (\(reason))" : "out of standby (\(reason))"
        default: nil
        }
    }
}

/// The names of the event log's events, as written.
public enum EventName: String, CaseIterable, Sendable {
    case key, tune, stalled, frozen, black, volume, audio, subtitles, subtitle, picture, locked, unlocked, snapshot, frame, flip, cue, favourite
    case reminder, schedule, standby, deinterlace, timeshift
    case lipSync = "lip-sync"
    case interstitialShown = "interstitial-shown"
    case firstFrame = "first-frame"
    case interstitialDismissed = "interstitial-dismissed"
    case audioStarted = "audio-started"
    case loadFailed = "load-failed"
    case loadRecovered = "load-recovered"
    case sourceFailover = "source-failover"
    case soundLost = "sound-lost"
    case soundBack = "sound-back"
    case subtitlesFailed = "subtitles-failed"
    case audioFailed = "audio-failed"
    case panelOpened = "panel-opened"
    case panelClosed = "panel-closed"
    case guideLoaded = "guide-loaded"
    case offline = "offline"
    case guideOpened = "guide-opened"
    case guideClosed = "guide-closed"
    case guideFocus = "guide-focus"
    case pinRejected = "pin-rejected"
    case crashLoop = "crash-loop"
}
