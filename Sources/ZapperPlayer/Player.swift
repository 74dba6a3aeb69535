import Dispatch
import Foundation
import Synchronization
import ZapperCore

/// The running appliance: one loop owns the screen (`FrameLoop`). Each tick it
/// takes in keys and news from the media threads, lets the tuner decide,
/// shows the picture due on the audio clock with the overlay on top, and
/// presents it at the display's next vblank. It reaches the world only through
/// its ports (`PlayerPorts`).
public final class Player {
    public struct Options {
        /// Opens the sound device (the executable wires ALSA in); nil: no sound, pictures on the system clock.
        public var openSound: (@Sendable () throws -> any PCMSink)?
        public var eventsPath: String?
        public var script: [ScriptLine] = []
        /// The newest events kept in memory (`EventLog`) for what waits for them in-process;
        /// nil: `EventLog.kept` while a script runs, none otherwise.
        public var keptEvents: Int?
        public var keymap = Keymap.defaults
        /// Diagnostics: a `frame` event per presented picture (its timeline time,
        /// the audio clock at that moment, and its mean brightness).
        public var traceFrames = false
        /// Diagnostics: a `flip` event per presented frame (when it hit the screen, what drawing it cost).
        public var traceFlips = false
        public var tuner = TunerSettings()
        /// Keep the next and previous channels ready for an instant flip.
        public var warmNeighbours = true
        /// The configuration file's settings (parental control, signage).
        public var config = ZapperConfig()
        /// The state restored at start (saved through `PlayerPorts.stateStore`).
        public var state = ZapperState()
        /// Set when the crash-loop breaker skipped or quarantined channels at start.
        public var crashNotice: CrashNotice?
        /// The time zone the schedule's times are in; nil: the box's (`TimeZone.current`,
        /// looked up only when there is a schedule: Foundation's time zones load ICU).
        public var timeZone: TimeZone?
        /// Channels the panel's list leaves out (those the last `zapper check` found dead); still tunable.
        public var hiddenFromPanel: Set<Int> = []
        /// The watch on the picture on screen (frozen or black: tuned again); nil: none.
        public var pictureWatch: PictureWatch.Settings? = PictureWatch.Settings()
        /// The lineup is the copy kept from an earlier fetch (none worked at start): until
        /// `lineupFetched`, the box counts as offline.
        public var lineupFromCopy = false
        /// The most streams a host serves at once (`Lineup.tunerLimits`: a network tuner's tuners).
        public var tunerLimits: [String: Int] = [:]
        public init() {}
    }

    /// What the crash-loop breaker decided at start (`CrashLoopBreaker`).
    public struct CrashNotice: Sendable {
        /// The channel that would have been started, skipped; nil when none was.
        public var skipped: Int?
        public var exits: Int
        /// What the card (and then the hint) says, when a channel was skipped.
        public var note: String?
        /// Channels never kept warm in this run.
        public var quarantined: Set<Int>

        public init(skipped: Int?, exits: Int, note: String?, quarantined: Set<Int>) {
            self.skipped = skipped
            self.exits = exits
            self.note = note
            self.quarantined = quarantined
        }
    }

    /// What other threads tell the loop.
    enum News: Sendable {
        /// A key and when it reached the player (log milliseconds).
        case key(KeyEvent, arrived: Int)
        case failed(serial: Int, channel: Int, PlaybackFailure)
        /// A fleet's command (`Player+Remote`), and who waits for its answer.
        case command(RemoteCommand, reply: (@Sendable (RemoteReply) -> Void)?)
        /// The lineup was fetched again: its copy no longer stands in.
        case lineupFetched
    }

    let options: Options
    let ports: PlayerPorts
    public let log: EventLog
    let audio: AudioPump
    let screen: any Screen
    let clock: any PlayerClock
    let channels: [Int: LineupChannel]
    var tuner: Tuner
    var keys: KeyRouter
    let logos: LogoStore
    let guide: GuideStore?
    var overlay = OverlayModel()
    /// The swipe-up panel, and the channel list's order (grouped).
    var panel: PanelLayer
    /// The Phone tab's link and when it was asked for (`clock.monotonic`): asked again after 5 s.
    var phoneInvite: (asked: Int, invite: PanelPhoneInvite)?
    /// The channel list's order, built when first wanted after the favourites or recents changed
    /// (not on the frame loop at every tune: it walks the whole lineup).
    var panelOrder: [PanelOrder.Entry] { builtPanelOrder.entries }
    /// The channel list's numbers, in its order.
    var panelNumbers: [Int] { builtPanelOrder.numbers }
    private var builtPanelOrder: (entries: [PanelOrder.Entry], numbers: [Int]) {
        if let built = panelOrderCache { return built }
        let entries = PanelOrder.entries(lineup.filter { !options.hiddenFromPanel.contains($0.number) }, favourites: favourites,
                                         recents: recents)
        let built = (entries: entries, numbers: entries.map(\.number))
        panelOrderCache = built
        return built
    }
    var panelOrderCache: (entries: [PanelOrder.Entry], numbers: [Int])?
    /// The lineup in its order (for the channel list, the favourites and CH±'s ring).
    let lineup: [LineupChannel]
    var favourites: Favourites
    var recents: Recents
    /// Each channel's even-loudness gain, as last heard.
    var levels: LevelMemory
    /// The full-screen guide.
    var guideLayer: GuideLayer
    /// The schedule followed, and standby.
    var standbyLayer: StandbyLayer
    /// OK and Info watched for a long press (a favourite).
    var longPress = LongPress()
    /// Reminders set in the guide, and the one whose notice is up.
    var reminderLayer: ReminderLayer
    var channelRowsCache: (key: ChannelRowsKey, rows: [PanelChannelRow])?
    /// The hint and the sound level, and when they go.
    var notices = PassingNotices()
    /// What the hint says: the crash-loop breaker's note when there is one.
    var hintText = "Swipe up for more"
    var parental: ParentalLayer
    /// The playing channel's chosen subtitles, and the lines due now (empty: none).
    var subtitles: SubtitlePlayer?
    var subtitleLines: [String] = []
    /// The chosen DVB subtitles' page on screen now.
    var subtitleBitmap: SubtitleBitmap?
    /// The size of the tune's first picture, for its `first-frame` event.
    var firstPictureSize = (width: 0, height: 0)
    /// The tune whose first picture was a still (`TimedPicture.isStill`) and whose clock waits for its next one.
    var stillShown: Int?
    /// The refresh period learnt from the display's flips, for `PictureDue` when the display reports none.
    var learntRefreshPeriod: Double?
    /// Pause, play and back to live on the channel on screen (`Player+Timeshift`).
    var transport = TransportLayer()
    /// A playing radio channel's silence (`Player+Radio`).
    var soundWatch = SoundWatch()
    /// The playing tune's picture rate, for `[display] match-frame-rate`.
    var rateMeter = PictureRateMeter()
    let keeper: StateKeeper
    /// The status a fleet watches (`Player+Remote`).
    let status = StatusBoard()
    /// What stands in for what could not be fetched (`Player+Offline`), and when that is looked at next.
    var offlineCopies: [String] = []
    var offlineCheckDue = 0
    var lineupFromCopy: Bool
    let inbox = Inbox<News>()
    /// Posts news to the loop from any thread.
    var newsPoster: @Sendable (News) -> Void { { [inbox] in inbox.post($0) } }

    /// The channel loading or playing.
    var playback: (any ChannelStream)?
    /// The warm neighbours, by channel number.
    var warm: [Int: any ChannelStream] = [:]
    /// The playback's first picture is still to come: the tuner's tune of it is under way.
    var awaitingFirstPicture: Bool { playback.map { tuner.loadingSerial == $0.serial } ?? false }
    /// When the playing channel's last picture came.
    var lastPictureAt = 0
    /// Whether the pictures coming show anything moving (`Player+PictureWatch`).
    var pictureWatch: PictureWatch?
    /// The failure last written to the log, so the tuner's echo of it is not written twice.
    var loggedFailure: (serial: Int, failure: PlaybackFailure)?
    static let starvedAfterMilliseconds = 2500

    public init(lineup: [LineupChannel], start: Int, ports: PlayerPorts, options: Options) throws {
        self.options = options
        self.ports = ports
        clock = ports.clock
        log = try EventLog(path: options.eventsPath, keeping: options.keptEvents ?? (options.script.isEmpty ? 0 : EventLog.kept), clock: ports.clock)
        screen = ports.screen
        logos = LogoStore(loader: ports.logos)
        lineupFromCopy = options.lineupFromCopy
        keeper = StateKeeper(store: ports.stateStore, state: options.state, lineup: Set(lineup.map(\.stateKey)))
        screen.pictureMode = options.state.picture
        ports.channels.setDeinterlace(options.state.deinterlace)
        channels = Dictionary(lineup.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        tuner = Tuner(channels: lineup.map(\.number), start: start, settings: options.tuner,
                      sources: Dictionary(lineup.map { ($0.number, $0.sources.count) }, uniquingKeysWith: { first, _ in first }),
                      worked: Self.workedSources(lineup, options.state))
        keys = KeyRouter(keymap: options.keymap)
        guideLayer = GuideLayer(entryTimeout: options.tuner.entryTimeout, maxDigits: options.tuner.maxDigits)
        panel = PanelLayer(tabs: ports.phoneInvite == nil ? PanelRow.standard : PanelRow.standard + [.phone],
                           entryTimeout: options.tuner.entryTimeout, maxDigits: options.tuner.maxDigits)
        pictureWatch = options.pictureWatch.map { PictureWatch(settings: $0) }
        self.lineup = lineup
        favourites = Favourites(keys: options.state.favourites)
        recents = Recents(keys: options.state.recents)
        levels = options.state.levels
        reminderLayer = ReminderLayer(kept: options.state.reminders, switchAtStart: options.config.signage.switchAtReminders)
        standbyLayer = StandbyLayer(schedule: options.config.schedule.isEmpty ? nil
                                        : ScheduleWatcher(entries: options.config.schedule, timeZone: options.timeZone ?? .current),
                                    panelDisabled: options.config.signage.panelDisabled)
        parental = ParentalLayer(gate: ParentalGate(policy: ParentalGate.Policy(options.config.parental)))
        if let saved = options.state.parental {
            parental.restore(saved, now: log.now, wallNow: Self.wallMilliseconds(ports.clock))
        }
        let events = log
        guide = ports.guide.map { GuideStore(loader: $0, lineup: lineup, clock: ports.clock) { events.emit(.guideLoaded(programmes: $0, stale: $1)) } }
        guide?.start()
        let log = self.log
        let retried = options.openSound != nil
        audio = AudioPump(openSound: options.openSound, clock: ports.clock, threaded: ports.audioThread, onSound: { change in
            switch change {
            case .lost(let reason):
                log.emit(.soundLost(reason: reason))
                if retried { Self.say("sound: the device is tried again every \(Int(SoundDevice.retrySeconds)) s") }
            case .opened(let sink), .back(let sink):
                if case .back = change { log.emit(.soundBack) }
                Self.say("sound: \(sink), \(sink.sampleRate) Hz, \(sink.bufferFrames * 1000 / max(sink.sampleRate, 1)) ms buffer")
            }
        }, onUnderrun: { [meter = ports.meter] in meter?.audioUnderrun() }) { playback, heard in
            log.emit(.audioStarted(channel: playback.channel.number, heard: heard))
        }
        _ = audio.setLevel(volume: options.state.volume, muted: options.state.muted || options.config.signage.startMuted)
        if let notice = options.crashNotice {
            log.emit(.crashLoop(exits: notice.exits, start: start, skipped: notice.skipped, quarantined: notice.quarantined.sorted()))
            if let note = notice.note {
                hintText = note
            }
        }
    }

    /// The wall clock in milliseconds since 1970 (for what must outlast a restart).
    static func wallMilliseconds(_ clock: any PlayerClock) -> Int { Int((clock.date.timeIntervalSince1970 * 1000).rounded()) }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data("zapper: \(line)\n".utf8))
    }

    /// Set by SIGTERM/SIGINT: the loop ends cleanly so the screen and the VT are handed back.
    static let stopRequested = Atomic<Bool>(false)
    /// Set by `requestReload`.
    static let reload = Atomic<Bool>(false)

    /// Makes SIGTERM and SIGINT end `run` at its next tick (exit code 0).
    public static func stopOnSignals() {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber) { _ in Player.stopRequested.store(true, ordering: .relaxed) }
        }
    }

    /// Where input devices send keys (from any thread).
    public var keySink: @Sendable (KeyEvent) -> Void { { [inbox, log] in inbox.post(.key($0, arrived: log.now)) } }

    /// One tick of the frame loop: news and keys taken in, the tuner's deadlines kept, the
    /// state saved when due, and the picture due now presented under the overlay (nil: nothing
    /// was presented). A test on a virtual clock calls it directly; `FrameLoop` on a box.
    func tick() -> Presented? {
        let now = log.now
        for news in inbox.take() { handle(news, now: now) }
        for action in keys.due(now: now) { perform(action, now: now) }
        longPressTick(now: now)
        scheduleTick(now: now, date: clock.date)
        if let deadline = tuner.nextDeadline, deadline <= now { apply(tuner.handle(.tick, now: now)) }
        keeper.flush(now: now)
        screen.output.serviceEvents()
        if !ports.audioThread { audio.step() }
        radioTick(now: now)
        let presented = inStandby ? presentStandby() : presentFrame()
        offlineTick(now: now)
        publishStatus(now: now)
        return presented
    }

    /// A script's key, as if it came from a remote now.
    func scriptKey(_ name: String, _ kind: KeyEvent.Kind, arrived: Int) {
        handle(.key(KeyEvent(name: name, kind: kind, device: "script"), arrived: arrived), now: log.now)
    }

    func stopAll() {
        for neighbour in warm.values { neighbour.stop(keepingSound: false) }
        warm.removeAll()
        rememberLevel()
        playback?.stop(keepingSound: false)
        audio.end()
        keeper.change { $0.running = false }
        keeper.flush(now: log.now, waiting: true)
    }

    func handle(_ news: News, now: Int) {
        switch news {
        case let .key(event, arrived):
            for action in keys.handle(event, now: now, arrived: arrived, log: log) { perform(action, now: now, arrived: arrived) }
        case let .failed(serial, channel, failure):
            fail(serial: serial, channel: channel, failure, now: now)
        case let .command(command, reply):
            let answer = carryOut(command, now: now)
            reply?(answer)
        case .lineupFetched:
            lineupFromCopy = false
        }
    }

    func snapshot(_ path: String) throws {
        try screen.snapshot(to: path)
        log.emit(.snapshot(path: path))
    }
}

/// A queue other threads post to and the loop empties each tick. A post wakes the loop
/// if it sleeps (`sleep(until:)`): a key is taken at once, not at the loop's next turn.
final class Inbox<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []
    /// Signalled at each post; waited on (monotonic time) by the sleeping loop.
    private let posted = DispatchSemaphore(value: 0)

    func post(_ item: Item) {
        lock.withLock { items.append(item) }
        posted.signal()
    }

    /// Sleeps until `deadline` (seconds on the monotonic clock of `DispatchTime`) or a post,
    /// whichever comes first.
    func sleep(until deadline: Double) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        guard deadline > now, lock.withLock({ items.isEmpty }) else { return }
        _ = posted.wait(timeout: .now() + .nanoseconds(Int((deadline - now) * 1e9)))
    }

    func take() -> [Item] {
        // The signals of what is taken now: they must not wake the next sleep.
        while posted.wait(timeout: .now()) == .success {}
        return lock.withLock {
            defer { items.removeAll() }
            return items
        }
    }
}
