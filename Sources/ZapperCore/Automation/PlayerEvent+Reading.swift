/// `PlayerEvent.fields` read back: each event from the fields it writes (`LoggedEvent`).
extension PlayerEvent {
    init(_ name: EventName, fields f: Fields) throws(FieldError) {
        switch name {
        case .key: self = .key(name: try f.string("name"), action: try f.string("action"), waitedMilliseconds: try f.int("waited_ms"))
        case .tune:
            self = .tune(channel: try f.int("channel"), channelName: "", reason: try f.choice("reason", as: TuneReason.self), warm: try f.bool("warm"))
        case .interstitialShown: self = .interstitialShown(channel: try f.int("channel"))
        case .firstFrame:
            self = .firstFrame(channel: try f.int("channel"), zapMilliseconds: try f.int("zap_ms"), width: try f.int("width"),
                               height: try f.int("height"), neighbourBytes: try f.int("neighbour_bytes"))
        case .interstitialDismissed:
            self = .interstitialDismissed(channel: try f.int("channel"), result: try f.choice("result", as: InterstitialResult.self))
        case .audioStarted: self = .audioStarted(channel: try f.int("channel"), heard: try f.bool("heard"))
        case .loadFailed: self = .loadFailed(channel: try f.int("channel"), try f.failure(detailKey: "error"))
        case .audioFailed: self = .audioFailed(channel: try f.int("channel"), try f.failure(detailKey: "error"))
        case .loadRecovered: self = .loadRecovered(channel: try f.int("channel"), gapMilliseconds: try f.int("gap_ms"))
        case .sourceFailover:
            self = .sourceFailover(channel: try f.int("channel"), from: try f.int("from"), to: try f.int("to"), try f.failure(detailKey: "reason"))
        case .stalled: self = .stalled(channel: try f.int("channel"), seconds: try f.int("seconds"))
        case .frozen: self = .frozen(channel: try f.int("channel"), seconds: try f.int("seconds"))
        case .black: self = .black(channel: try f.int("channel"), seconds: try f.int("seconds"))
        case .soundLost: self = .soundLost(reason: try f.string("reason"))
        case .soundBack: self = .soundBack
        case .subtitlesFailed: self = .subtitlesFailed(channel: try f.int("channel"), error: try f.string("error"), said: false)
        case .volume: self = .volume(level: try f.int("level"), muted: try f.bool("muted"))
        case .panelOpened: self = .panelOpened(row: try f.string("row"))
        case .panelClosed: self = .panelClosed(reason: try f.choice("reason", as: PanelCloseReason.self))
        case .guideLoaded: self = .guideLoaded(programmes: try f.int("programmes"), stale: try f.bool("stale"))
        case .offline:
            let copies = try f.string("copies")
            self = .offline(on: try f.bool("on"), copies: copies.split(separator: " ").map(String.init))
        case .schedule:
            let action = try f.string("action")
            guard action == "began" || action == "ended" else { throw FieldError(reason: "action \"\(action)\" is neither began nor ended") }
            self = .schedule(entry: try f.int("entry"), began: action == "began")
        case .standby: self = .standby(on: try f.bool("on"), reason: try f.string("reason"))
        case .guideOpened: self = .guideOpened(channel: try f.int("channel"))
        case .guideClosed: self = .guideClosed(reason: try f.choice("reason", as: PanelCloseReason.self))
        case .guideFocus: self = .guideFocus(channel: try f.int("channel"), start: try f.int("start"), title: try f.string("title"))
        case .reminder:
            self = .reminder(channel: try f.int("channel"), start: try f.int("start"), action: try f.choice("action", as: ReminderAction.self))
        case .audio: self = .audio(channel: try f.int("channel"), language: try f.string("language"))
        case .subtitles: self = .subtitles(channel: try f.int("channel"), language: try f.string("language"))
        case .subtitle:
            if f.values["regions"] != nil {
                self = .subtitleBitmap(channel: try f.int("channel"), regions: try f.int("regions"), canvas: try f.string("canvas"))
            } else {
                self = .subtitle(channel: try f.int("channel"), text: try f.string("text"))
            }
        case .picture: self = .picture(mode: try f.string("mode"))
        case .deinterlace: self = .deinterlace(mode: try f.string("mode"))
        case .lipSync: self = .lipSync(milliseconds: try f.int("ms"))
        case .locked: self = .locked(channel: try f.int("channel"), rating: try f.string("rating"))
        case .pinRejected:
            self = .pinRejected(channel: try f.int("channel"), triesLeft: try f.int("tries_left"), lockoutSeconds: try f.optionalInt("lockout_s"))
        case .unlocked: self = .unlocked(channel: try f.int("channel"), reason: try f.string("reason"))
        case .timeshift:
            self = .timeshift(channel: try f.int("channel"), state: try f.choice("state", as: TransportLayer.State.self),
                              behindMilliseconds: try f.int("behind_ms"), positionMilliseconds: try f.int("position_ms"))
        case .snapshot: self = .snapshot(path: try f.string("path"))
        case .cue:
            let duration = try f.optionalInt("duration_ms").map { Double($0) / 1000 }
            let cueClass = f.values["class"] == nil ? nil : try f.string("class")
            self = .cue(channel: try f.int("channel"),
                        HLSCue(id: try f.string("id"), kind: try f.choice("kind", as: HLSCue.Kind.self), duration: duration, cueClass: cueClass))
        case .favourite: self = .favourite(channel: try f.int("channel"), on: try f.bool("on"))
        case .crashLoop:
            let words = try f.string("quarantined").split(separator: ",")
            let quarantined = words.compactMap { Int($0) }
            guard quarantined.count == words.count else { throw FieldError(reason: "quarantined is not a list of numbers") }
            self = .crashLoop(exits: try f.int("exits"), start: try f.int("start"), skipped: try f.optionalInt("skipped"), quarantined: quarantined)
        case .frame: self = .frame(ptsMilliseconds: try f.int("pts_ms"), clockMilliseconds: try f.int("clock_ms"), luma: try f.int("luma"))
        case .flip:
            self = .flip(flipMicroseconds: try f.int("flip_us"), scaleMicroseconds: try f.int("scale_us"), composeMicroseconds: try f.int("compose_us"))
        }
    }
}
