import Foundation
import ZapperCore

/// The tuner's effects carried out, and each tick's picture.
extension Player {
    func apply(_ effects: [TunerEffect]) {
        var presented: Int?
        defer {
            if let presented { rewarm(around: presented) }
        }
        for effect in effects {
            switch effect {
            case let .startTune(number, serial, reason, source):
                guard let channel = channels[number] else { continue }
                startTune(channel.playing(source: source), serial: serial, reason: reason)
                // Every tune is at the live edge (`live` brings the one on screen back there).
                carryOut(transport.joinedLive())
            case let .sourceFailover(number, from, to, failure):
                log.emit(.sourceFailover(channel: number, from: from + 1, to: to + 1, failure))
            case .cancelTune(let serial):
                if playback?.serial == serial { stopPlayback() }
            case let .presented(number, _, zap):
                log.emit(.firstFrame(channel: number, zapMilliseconds: zap, width: firstPictureSize.width, height: firstPictureSize.height,
                                     neighbourBytes: ports.channels.warmNeighbourBytes))
                presented = number
                // Shown once the banner (up from now) is gone. The crash-loop breaker's note is shown
                // whatever the signage settings, and for longer.
                let crashNote = options.crashNotice?.note != nil
                notices.firstPicture(now: log.now, bannerUntil: tuner.view.banner?.until, long: crashNote,
                                     allowed: crashNote || (!options.config.signage.noHint && !options.config.signage.panelDisabled))
                let channel = channels[number]
                let source = channel.flatMap { $0.backups.isEmpty ? nil : $0.playing(source: tuner.source(of: number)).url }
                keeper.change {
                    $0.lastChannel = number
                    $0.lastChannelKey = channel?.stateKey
                    if let channel, let source { $0.sources[channel.stateKey] = source.absoluteString }
                }
                watched(number)
            case let .loadFailed(number, serial, failure):
                // What `fail` reported is in the log already; the tuner's own watchdog is not.
                if loggedFailure?.serial != serial || loggedFailure?.failure != failure {
                    logFailure(failure, channel: number, serial: serial)
                }
                if playback?.serial == serial { stopPlayback() }
            case .interstitialShown(let number):
                log.emit(.interstitialShown(channel: number))
            case let .interstitialDismissed(number, result):
                log.emit(.interstitialDismissed(channel: number, result: result))
            }
        }
    }

    /// The old channel stops at once (its sound fading); its last picture stays
    /// on screen until the new channel's first one replaces it. (Coming back to it
    /// before then, the tuner tunes it again: see `Tuner`.)
    /// A warm neighbour (of the same source) is promoted; any other channel starts cold.
    private func startTune(_ channel: LineupChannel, serial: Int, reason: TuneReason) {
        stopPlayback()
        var warmed = warm.removeValue(forKey: channel.number)
        if let other = warmed, other.channel.url != channel.url {
            other.stop(keepingSound: false)
            warmed = nil
        }
        log.emit(.tune(channel: channel.number, channelName: channel.name, reason: reason, warm: warmed != nil))
        // Noted before it plays: if this channel ends the run, the next start knows which it was.
        keeper.change { $0.tuning = channel.stateKey }
        // Neighbours of the channel left behind stop now, not at the new one's first picture:
        // their fetches would share the line with the tune's (its neighbours start after it shows),
        // and before it starts, so that a network tuner has a tuner free for it.
        if let wanted = wantedNeighbours(around: channel.number) { stopNeighbours(except: wanted) }
        if let warmed {
            warmed.promote(serial: serial)
            playback = warmed
        } else {
            let playback = makePlayback(channel, serial: serial)
            self.playback = playback
            playback.start()
        }
    }

    private func makePlayback(_ channel: LineupChannel, serial: Int?) -> any ChannelStream {
        let log = self.log
        let inbox = self.newsPoster
        let tuners = options.tunerLimits
        return ports.channels.open(channel, serial: serial, audioLanguage: keeper.state.audio[channel.stateKey]) { news, serial in
            switch news {
            case .failed(let failure):
                inbox(.failed(serial: serial, channel: channel.number, NetworkTuner.explain(failure, url: channel.url, limits: tuners)))
            case .audioFailed(let failure):
                log.emit(.audioFailed(channel: channel.number, failure))
            case .cue(let cue):
                log.emit(.cue(channel: channel.number, cue))
            }
        }
    }

    /// The one road of a failure of tune `serial`, whoever found it (the engine, the
    /// picture watch): the tuner decides what it means, and it is logged once, as
    /// `load-failed` (before the tuner's effects) unless the tuner hands the channel to its
    /// next source (then `source-failover` says it: the channel has not failed).
    func fail(serial: Int, channel: Int, _ failure: PlaybackFailure, now: Int) {
        let effects = tuner.handle(.failed(serial: serial, failure), now: now)
        if !effects.contains(where: \.isSourceFailover) { logFailure(failure, channel: channel, serial: serial) }
        apply(effects)
    }

    private func logFailure(_ failure: PlaybackFailure, channel: Int, serial: Int) {
        loggedFailure = (serial, failure)
        log.emit(.loadFailed(channel: channel, failure))
    }

    /// The channels to keep warm beside `number`; nil when none are kept (the setting, a lone channel).
    private func wantedNeighbours(around number: Int) -> Set<Int>? {
        guard options.warmNeighbours, let index = tuner.channels.firstIndex(of: number), tuner.channels.count > 1 else { return nil }
        let count = tuner.channels.count
        let quarantined = options.crashNotice?.quarantined ?? []
        let candidates = [tuner.channels[(index + 1) % count], tuner.channels[(index - 1 + count) % count]]
            .filter { !quarantined.contains($0) }
        let configured = options.config.network.connectionsPerHost, tuners = options.tunerLimits
        return Set(WarmNeighbours.allowed(candidates, playing: number,
                                          limit: { WarmNeighbours.limit(for: $0, configured: configured, tuners: tuners) }) {
            channels[$0]?.playing(source: tuner.source(of: $0)).url.host?.lowercased()
        })
    }

    /// Stops every warm neighbour but those `wanted`.
    private func stopNeighbours(except wanted: Set<Int>) {
        for (neighbour, playback) in warm where !wanted.contains(neighbour) {
            playback.stop(keepingSound: false)
            warm[neighbour] = nil
        }
    }

    /// Keeps the channels next to `number` warm, and only those.
    func rewarm(around number: Int) {
        guard let wanted = wantedNeighbours(around: number) else { return }
        stopNeighbours(except: wanted)
        for neighbour in wanted where warm[neighbour] == nil {
            guard let channel = channels[neighbour]?.playing(source: tuner.source(of: neighbour)) else { continue }
            let playback = makePlayback(channel, serial: nil)
            warm[neighbour] = playback
            playback.start()
        }
    }

    /// Where each channel with several sources starts: the one the state remembers playing last.
    static func workedSources(_ lineup: [LineupChannel], _ state: ZapperState) -> [Int: Int] {
        var worked: [Int: Int] = [:]
        for channel in lineup where !channel.backups.isEmpty {
            guard let url = state.sources[channel.stateKey],
                  let index = channel.sources.firstIndex(where: { $0.url.absoluteString == url }) else { continue }
            worked[channel.number] = index
        }
        return worked
    }

    func stopPlayback() {
        guard let old = playback else { return }
        rememberLevel()
        old.stop(keepingSound: true)
        audio.end(fadeOut: true)
        playback = nil
    }

    /// A frame presented: when it was queued, and when it hit the screen (nil: no flip within 100 ms).
    struct Presented {
        let queued: Double
        let flip: Double?
    }

    /// Shows the picture due now (if any) under the overlay; nil when nothing was presented.
    func presentFrame() -> Presented? {
        let now = log.now
        var firstPicture: (serial: Int, time: Double, still: Bool)?
        var clockStart: Double?
        var scaleNanoseconds: UInt64 = 0
        // A radio channel has no picture to present or watch (`Player+Radio`).
        if let playback, !isRadio(playback), transport.state != .paused, watchForStarvation(playback, now: now) {
            // The A/V rule (`PictureDue`): against the sound heard, none before the first picture
            // and while a still first picture is up (the next one starts the clock).
            let heard = awaitingFirstPicture || stillShown == playback.serial ? nil : audio.clock
            let due = PictureDue(reported: screen.output.refreshPeriod, learnt: learntRefreshPeriod)
                .take(heard.map { .sound(heard: $0, lipSync: lipSync) } ?? .none)
            let clock = due.dueTime
            if let picture = playback.picture(due) {
                do {
                    let scaleStart = DispatchTime.now().uptimeNanoseconds
                    try screen.show(picture.picture)
                    scaleNanoseconds = DispatchTime.now().uptimeNanoseconds - scaleStart
                    if let heard { ports.meter?.presented(pictureTime: picture.time, clock: heard, dropped: picture.dropped) }
                    if awaitingFirstPicture {
                        pictureWatch?.reset()
                        rateMeter.reset()
                        firstPicture = (playback.serial, picture.time, picture.isStill)
                        firstPictureSize = (picture.picture.width, picture.picture.height)
                    } else {
                        if stillShown == playback.serial, !picture.isStill {
                            stillShown = nil
                            clockStart = picture.time
                        }
                        if playback.failures.recovers(segment: picture.segment) {
                            log.emit(.loadRecovered(channel: playback.channel.number, gapMilliseconds: now - lastPictureAt))
                        }
                        watchPicture(of: playback, now: now)
                        if let rate = rateMeter.add(picture.time), options.config.matchFrameRate {
                            _ = screen.output.matchRefresh(toPictureRate: rate)
                        }
                    }
                    lastPictureAt = now
                    if options.traceFrames {
                        log.emit(.frame(ptsMilliseconds: Int((picture.time * 1000).rounded()),
                                        clockMilliseconds: clock.map { Int(($0 * 1000).rounded()) } ?? -1, luma: screen.videoLuma))
                    }
                } catch {
                    Self.say("picture: \(error)")
                }
            }
        }
        let date = clock.date
        parentalTick(now: now, date: date)
        subtitleTick()
        panelTick(now: now)
        guideTick(now: now)
        reminderTick(now: now, date: date)
        notices.expire(now: now)
        var extras = OverlayModel.Extras(panel: panelContent(at: date), hint: reminderText(at: date) ?? (notices.showsHint ? hintText : nil),
                                         guide: guideContent(at: date),
                                         cardNote: notices.hintShown ? nil : options.crashNotice?.note,
                                         locked: lockedCard(now: now), subtitles: subtitleLines,
                                         volume: notices.showsVolume ? VolumeLevel(level: audio.level.volume, muted: audio.level.muted) : nil,
                                         offline: isOffline, radio: radioScreen(at: date, now: now))
        extras.bitmapSubtitles = subtitleBitmap
        let layers = overlay.layers(tuner.view, now: now, identity: { identity(of: $0) },
                                    programmes: { guide?.lines(for: channels[$0], at: date) ?? (nil, nil, nil) }, extras: extras)
        let presented: Bool
        let composeStart = DispatchTime.now().uptimeNanoseconds
        do {
            presented = try screen.compose(layers)
        } catch {
            Self.say("display: \(error)")
            return nil
        }
        guard presented else { return nil }
        let queued = clock.monotonic
        let composeNanoseconds = DispatchTime.now().uptimeNanoseconds - composeStart
        let flip = (try? screen.output.waitForFlip(timeoutMilliseconds: 100)) ?? nil
        if options.traceFlips {
            // flip_us: CLOCK_MONOTONIC of the page flip (-1: none within 100 ms); scale_us: the
            // video picture scaled to the screen (0: only the overlay changed); compose_us: overlay
            // drawn, picture and overlay blended into the display's buffer, flip queued.
            log.emit(.flip(flipMicroseconds: flip.map { Int(($0 * 1_000_000).rounded()) } ?? -1,
                           scaleMicroseconds: Int(scaleNanoseconds / 1000), composeMicroseconds: Int(composeNanoseconds / 1000)))
        }
        if let clockStart, let playback {
            audio.begin(playback, at: lipSync.soundStart(pictureTime: clockStart), leveller: leveller(for: playback.channel))
        }
        if let firstPicture, let playback, playback.serial == firstPicture.serial {
            // A still (a warm neighbour's kept key frame, shown before its stream has caught up):
            // the sound starts with the next picture, in step with it, not behind it from now.
            if firstPicture.still {
                stillShown = playback.serial
            } else {
                audio.begin(playback, at: lipSync.soundStart(pictureTime: firstPicture.time), leveller: leveller(for: playback.channel))
            }
            let at = flip.map { log.milliseconds(atMonotonic: $0) } ?? log.now
            apply(tuner.handle(.tuneSucceeded(serial: firstPicture.serial), now: at))
        }
        return Presented(queued: queued, flip: flip)
    }

    /// A playing channel whose pictures stopped coming is a failure the viewer sees,
    /// whatever the network said: reported once, recovered at the next picture.
    /// Still nothing after the tuner's `stallAfter`: the channel has stalled (a decoder that
    /// returns nothing, a live edge that stopped, a pipeline stuck), and the tuner tunes it again.
    /// False when the playback was stopped for it.
    private func watchForStarvation(_ playback: any ChannelStream, now: Int) -> Bool {
        guard !awaitingFirstPicture else { return true }
        let starved = now - lastPictureAt
        if starved > tuner.settings.stallAfter, playback.failures.tellStall() {
            let seconds = starved / 1000
            log.emit(.stalled(channel: playback.channel.number, seconds: seconds))
            fail(serial: playback.serial, channel: playback.channel.number, PlaybackFailure(.frozen, "stalled, no picture for \(seconds) s; tuning it again"), now: now)
            return self.playback === playback
        }
        guard starved > Self.starvedAfterMilliseconds, !playback.failures.isFailing else { return true }
        playback.failures.failed()
        fail(serial: playback.serial, channel: playback.channel.number, PlaybackFailure(.noPicture, "no picture for \(Self.starvedAfterMilliseconds / 1000) s"), now: now)
        return true
    }

    func identity(of number: Int) -> ChannelIdentity {
        guard let channel = channels[number] else { return ChannelIdentity(number: number, name: "") }
        return ChannelIdentity(number: number, name: channel.name, logoPNG: logos.png(for: channel), isRadio: channel.isRadio)
    }
}
