import ArgumentParser
import Foundation
import Synchronization
import ZapperAudio
import ZapperCore
import ZapperDisplay
import ZapperEngine
import ZapperHLS
import ZapperInput
import ZapperMetrics
import ZapperMedia
import ZapperMQTT
import ZapperPlayer
import ZapperSettings
import ZapperWindow

/// zapper: the live TV appliance. Wiring only: the rules live in ZapperCore,
/// the devices in the backends, the pipeline in ZapperPlayer.
@main
struct Zapper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper",
        abstract: "Live TV on bare Linux: channels from an M3U Plus lineup.",
        version: ZapperVersion.current)

    enum DisplayChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, drm, window, offscreen
    }

    @Option(help: "The lineup: an M3U Plus file or http(s) URL (default: the configuration's `lineup`).")
    var lineup: String = ""

    @Option(help: "The configuration file, TOML (default: /etc/zapper/zapper.toml when it exists).")
    var config: String?

    @Option(help: "Where the last channel, volume and choices are kept (default: /var/lib/zapper when writable, else ~/.local/state/zapper).")
    var stateDir: String?

    @Option(help: "The channel number to start on (default: the first).")
    var channel: Int?

    @Option(help: "auto (KMS when a device opens, else a window on a desktop, else offscreen), drm, window or offscreen.")
    var display: DisplayChoice = .auto

    @Option(help: "Size of the offscreen display or of the window's picture, WIDTHxHEIGHT (default: 1920x1080 offscreen, 1280x720 in a window).")
    var size: String?

    @Option(help: "ALSA PCM device, or none (pictures then run on the system clock).")
    var audioDevice = "default"

    @Option(help: "Write the event log (JSON lines) to this file.")
    var events: String?

    @Option(help: "Run an automation script (press, hold, wait, wait-event, snapshot, quit).")
    var script: String?

    @Option(help: "The programme guide (XMLTV file or http(s) URL; default: the lineup's url-tvg).")
    var guide: String?

    @Option(help: "A keymap file of `KEY_NAME action` lines over the defaults (`--print-default-keymap` shows them).")
    var keymap: String?

    @Option(help: "The KMS device for --display drm (default: the first card with a connected connector).")
    var drmDevice: String?

    @Option(help: "The connector for --display drm, e.g. HDMI-A-1 (default: the first connected).")
    var connector: String?

    @Option(help: "The mode for --display drm, WIDTHxHEIGHT[@HZ] (default: the connector's preferred).")
    var mode: String?

    @Flag(inversion: .prefixedNo,
          help: "Claim a playback address on each free HDMI-CEC adapter, so the TV sends its remote's keys.")
    var cecClaim = true

    @Flag(help: "Diagnostics: add a `frame` event per presented picture to the event log.")
    var traceFrames = false

    @Flag(help: "Diagnostics: add a `flip` event per presented frame (page-flip time, drawing cost) to the event log.")
    var traceFlips = false

    @Flag(help: "Print the default keymap (a valid --keymap file) and exit.")
    var printDefaultKeymap = false

    @Flag(help: "Print the names of the events the event log holds, one a line, and exit.")
    var listEvents = false

    @Option(help: "Print the hash of this PIN, for the configuration's parental pin-hash, and exit.")
    var hashPin: String?

    /// `zapper check LINEUP` is a command of its own; everything else plays.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "check" {
            ZapperCheck.main(Array(arguments.dropFirst()))
        } else {
            main(arguments)
        }
    }

    /// The configuration's network settings, before anything is fetched (the lineup may be
    /// an https URL): the shared pool is made with its trust.
    static func setUpFetching(_ settings: ZapperConfig) throws {
        do {
            HTTPFetcher.trustShared(try TLSTrust(caFile: settings.network.caFile).checked())
        } catch {
            throw ValidationError("ca-file \(error)")
        }
        if let agent = settings.network.userAgent { HTTPFetcher.shared.userAgent = agent }
    }

    /// The lineup as the configuration wants it: duplicates merged (or not), the guide shift applied.
    static func parseLineup(_ text: String, source: String, settings: ZapperConfig) -> Lineup {
        // An HDHomeRun's lineup (and its discover.json) is JSON; everything else is read as M3U.
        var parsed = HDHomeRunLineup.looksLikeJSON(text)
            ? HDHomeRunLineup.parse(text, source: source, mergeDuplicates: settings.mergeDuplicates)
            : M3UPlusParser.parse(text, source: source, mergeDuplicates: settings.mergeDuplicates)
        if let shift = settings.guideShift { parsed.shiftGuide(byDefault: shift) }
        return parsed
    }

    /// After the lineup is read: the lineup itself is the owner's choice; what it lists
    /// may be blocked from the local network.
    static func blockWhatTheLineupLists(_ settings: ZapperConfig) {
        HTTPFetcher.shared.blocksPrivateAddresses = settings.network.blockPrivateAddresses
    }

    func run() throws {
        Fleet.noteInheritedDescriptors()
        // The metrics' uptime counts from here.
        let launched = SystemClock().monotonic
        var phases = StartupPhases()
        if printDefaultKeymap {
            print(Keymap.defaultsText, terminator: "")
            return
        }
        if listEvents {
            print(EventName.allCases.map(\.rawValue).joined(separator: "\n"))
            return
        }
        if let hashPin {
            guard (3...12).contains(hashPin.count), hashPin.allSatisfy(\.isASCII), hashPin.allSatisfy(\.isNumber) else {
                throw ValidationError("--hash-pin: a PIN is 3 to 12 digits")
            }
            print(PINHash.hash(pin: hashPin))
            return
        }
        let settings: ZapperConfig
        do {
            settings = try ConfigFile.load(path: config)
        } catch {
            throw ValidationError("\(error)")
        }
        for note in settings.notes { say(note) }
        let lineup = self.lineup.isEmpty ? settings.lineup ?? "" : self.lineup
        guard !lineup.isEmpty else {
            throw ValidationError("Missing expected argument '--lineup <lineup>' (or `lineup` in \(config ?? ConfigFile.defaultPath))")
        }
        try Self.setUpFetching(settings)
        // The state: a directory that cannot be made means playing without remembering, said once.
        var store: StateStore?
        do {
            store = try StateStore(directory: StateStore.directory(flag: stateDir))
        } catch {
            if stateDir != nil { throw ValidationError("--state-dir: \(error)") }
            say("state not kept: \(error)")
        }
        let restored = store?.load()
        if let message = restored?.message { say(message) }
        let fetchedLineup: LineupText.Read
        do {
            fetchedLineup = try LineupText.read(lineup, cacheDirectory: store?.directory) { say($0) }
        } catch {
            throw ValidationError("\(error)")
        }
        let text = fetchedLineup.text
        Self.blockWhatTheLineupLists(settings)
        let parseStarted = ContinuousClock.now
        let parsed = Self.parseLineup(text, source: lineup, settings: settings)
        let parseMilliseconds = (ContinuousClock.now - parseStarted) / .milliseconds(1)
        for problem in parsed.problems {
            say("\(problem)")
        }
        guard let first = parsed.channels.first else { throw ValidationError("\(lineup): no playable channel in the lineup") }
        if let channel, parsed.channel(number: channel) == nil { throw ValidationError("\(lineup): there is no channel \(channel)") }
        let state = restored?.state ?? ZapperState()

        var options = Player.Options()
        var sizes = (offscreen: (1920, 1080), window: (1280, 720))
        if let size {
            let dimensions = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard dimensions.count == 2, dimensions.allSatisfy({ (16...8192).contains($0) && $0 % 2 == 0 }) else {
                throw ValidationError("--size \(size): expected WIDTHxHEIGHT with even numbers, e.g. 1920x1080")
            }
            sizes = ((dimensions[0], dimensions[1]), (dimensions[0], dimensions[1]))
        }
        // ALSA's own error text goes to our log, not raw to stderr; "none" plays without sound.
        // A box without a sound card tries its device every few seconds: each line is said once.
        let saidALSA = Mutex<Set<String>>([])
        ALSALibrary.routeErrors { line in
            if saidALSA.withLock({ $0.count < 64 && $0.insert(line).inserted }) { say("sound: ALSA: \(line)") }
        }
        // FFmpeg's own warnings likewise: through our log, each kind once (numbers aside: a
        // damaged packet's timestamp differs every time).
        let saidFFmpeg = Mutex<Set<String>>([])
        FFmpegLibrary.routeLog { level, component, message in
            let kind = component + ": " + message.replacing(/[0-9]+/, with: "#")
            guard saidFFmpeg.withLock({ $0.count < 256 && $0.insert(kind).inserted }) else { return }
            // One line, whatever FFmpeg put in it ("Could not find codec parameters …\nConsider increasing …").
            let text = message.split(whereSeparator: \.isNewline).joined(separator: "; ")
            say("ffmpeg: \(component.isEmpty ? "" : component + ": ")\(level == .error ? "error: " : "")\(text)")
        }
        let device = audioDevice
        if device != "none" {
            options.openSound = { @Sendable () throws -> any PCMSink in try ALSAOutput(device: device) }
        }
        options.eventsPath = events
        options.traceFrames = traceFrames
        options.traceFlips = traceFlips
        options.config = settings
        options.pictureWatch = settings.signage.pictureWatch
        options.state = state
        // The lineup's guides (url-tvg, x-tvg-url: each URL passed MediaURLPolicy, so no local file).
        let guideSources = (guide ?? settings.guide).map { [$0] } ?? parsed.guideURLs.map(\.absoluteString)
        if let script {
            options.script = try read(script, "script") { try ScriptParser.parse($0, source: script, canonical: EvdevCodes.canonicalKeyName) }
        }
        if let keymap = keymap ?? settings.keymap {
            options.keymap = try read(keymap, "keymap") { try Keymap.load($0, source: keymap, canonical: EvdevCodes.canonicalKeyName) }
        }

        phases.mark("configuration and lineup")
        let output = try openDisplay(offscreenSize: sizes.offscreen, windowSize: sizes.window)
        phases.mark("display")
        say("\(parsed.channels.count) channels from \(lineup) (parsed in \(Int(parseMilliseconds.rounded())) ms)")
        let preferred = channel ?? resumed(state, parsed.channels)
            ?? settings.defaultChannel.flatMap { parsed.channel(number: $0)?.number } ?? first.number
        let start = CrashLoopStart(preferred: preferred, defaultChannel: settings.defaultChannel, lineup: parsed.channels,
                                   state: state, store: store) { say($0) }
        options.state = start.state
        options.crashNotice = start.notice
        options.lineupFromCopy = fetchedLineup.fromCopy
        options.tunerLimits = parsed.tunerLimits
        if settings.hideDeadChannels { options.hiddenFromPanel = deadChannels(parsed.channels, store: store) }
        let player: Player
        let metrics = settings.metricsListen.map { _ in PlayerMetrics() }
        let phone = settings.metricsListen.flatMap { listen in settings.apiToken.map { PhoneInvite(listen: listen, token: $0) } }
        let phoneInvite: (@Sendable () -> PanelPhoneInvite)? = phone.map { phone in { @Sendable in phone.invite() } }
        let fleet: FleetLink?
        do {
            // Logos are kept in the state directory too, for a box that starts offline.
            let logos: any ByteLoader = store.map { KeptByteLoader(HTTPByteLoader(), directory: $0.directory.appendingPathComponent("logos")) }
                ?? HTTPByteLoader()
            let screenSize = ScreenSize()
            let ports = PlayerPorts(channels: HLSChannelSource(screen: screenSize, audioPreferences: settings.audio), screen: ScreenCompositor(output: output, tellingSizeTo: screenSize),
                                    logos: logos,
                                    guide: guideSources.isEmpty ? nil : XMLTVGuideLoader(
                                        sources: guideSources, cache: store.map { GuideCache(file: $0.directory.appendingPathComponent("guide-cache.json")) }),
                                    verifyPIN: { PINHash.verify(pin: $0, against: $1) }, stateStore: store,
                                    tvPower: settings.schedule.contains(where: \.standby) ? CECPower() : nil, meter: metrics,
                                    phoneInvite: phoneInvite)
            phases.mark("overlay and loaders")
            player = try Player(lineup: parsed.channels, start: start.channel, ports: ports, options: options)
            phases.mark("player")
            fleet = try Fleet.start(settings.mqtt, player: player, lineup: parsed.channels)
        } catch {
            var ended = start.state
            ended.running = false
            try? store?.save(ended)
            throw error
        }
        if fetchedLineup.fromCopy {
            LineupText.fetchAgain(lineup, playing: text, cacheDirectory: store?.directory, say: { say($0) }, fetched: player.lineupFetched)
        }
        let metricsServer = metrics.flatMap { serveMetrics($0, player: player, on: settings.metricsListen, token: settings.apiToken,
                                                                hosts: HostRule(names: settings.apiHostnames), launched: launched, channels: parsed.channels.filter { !options.hiddenFromPanel.contains($0.number) }) }
        defer { metricsServer?.shutdown() }
        if let metricsServer { phone?.bound.withLock { $0 = metricsServer.port } }
        unblockStopSignals()
        Player.stopOnSignals()
        phases.mark("fleet and metrics")
        let input = try? InputSource(claimCEC: cecClaim, log: { say($0) }, onKey: player.keySink)
        phases.mark("input")
        say(phases.line)
        say(Allocator.description())
        // The window's keys too; closing it is a SIGTERM (WindowDisplay.onClose): a clean stop.
        (output as? WindowDisplay)?.onKey = player.keySink
        let code = player.run()
        fleet?.stop()
        input?.stop()
        if let kms = output as? KMSDisplay { kms.restore() }
        if Player.reloadRequested { Fleet.startAgain() }
        if code != 0 { throw ExitCode(code) }
    }

    /// The channel watched last: found by its key (it survives renumbering), else by its number.
    private func resumed(_ state: ZapperState, _ channels: [LineupChannel]) -> Int? {
        if let key = state.lastChannelKey, let channel = channels.first(where: { $0.stateKey == key }) { return channel.number }
        return state.lastChannel.flatMap { number in channels.first { $0.number == number }?.number }
    }

    private func read<T>(_ path: String, _ what: String, _ parse: (String) throws -> T) throws -> T {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw ValidationError("\(path): cannot read the \(what) (\(error.localizedDescription))")
        }
        do {
            return try parse(text)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// A parent can hand down a signal mask that blocks SIGTERM and SIGINT (a program spawning zapper
/// from one of its Dispatch threads does): then neither a `kill` nor the window's close (a raise on
/// this thread) would ever stop zapper. This thread, and the threads it starts, take them again.
private func unblockStopSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}

/// The channels the last `zapper check` (its report in the state directory) found dead.
private func deadChannels(_ channels: [LineupChannel], store: StateStore?) -> Set<Int> {
    guard let file = store?.directory.appendingPathComponent(LineupCheckReport.fileName),
          let data = try? Data(contentsOf: file), let report = LineupCheckReport.read(data) else {
        say("hide-dead-channels: no report of `zapper check` in the state directory; every channel is listed")
        return []
    }
    let dead = report.deadURLs
    let hidden = Set(channels.filter { dead.contains($0.url.absoluteString) }.map(\.number))
    let when = Date(timeIntervalSince1970: report.checkedAt)
    say("hide-dead-channels: \(hidden.count) channels left out of the panel, found dead by the check of \(when)")
    return hidden
}

func say(_ line: String) {
    FileHandle.standardError.write(Data("zapper: \(line)\n".utf8))
}
