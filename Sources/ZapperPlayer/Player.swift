import Dispatch
import Foundation
import ZapperAudio
import ZapperCore
import ZapperMedia
import ZapperUI

/// The running appliance: one tuned channel, the 60 Hz presentation loop on
/// the offscreen display, the audio thread, the event log and the script.
public final class Player {
    public struct Options {
        public var width = 1920
        public var height = 1080
        public var audioDevice = "default"
        public var eventsPath: String?
        public var script: [ScriptLine] = []
        /// Diagnostics: a `frame` event per presented picture (its timeline time,
        /// the audio clock at that moment, and its mean brightness).
        public var traceFrames = false
        public init() {}
    }

    private let options: Options
    public let log: EventLog
    private let audio: AudioPump
    private let parametersCache = ParametersCache()
    private var framebuffer: XRGBImage
    private let scaler = VideoScaler()
    private var playback: ChannelPlayback?
    private var serial = 0
    private var tuneStartedAt = 0
    private var presentedFirst = false
    /// When the playing channel's last picture came.
    private var lastPictureAt = 0
    static let starvedAfterMilliseconds = 2500

    public init(options: Options) throws {
        self.options = options
        log = try EventLog(path: options.eventsPath)
        framebuffer = XRGBImage(width: options.width, height: options.height)
        var output: ALSAOutput?
        do {
            output = try ALSAOutput(device: options.audioDevice)
            if let output {
                Self.say("sound: ALSA \"\(output.device)\", \(output.sampleRate) Hz, \(output.bufferFrames * 1000 / output.sampleRate) ms buffer")
            }
        } catch {
            Self.say("sound: none (\(error))")
        }
        let log = self.log
        audio = AudioPump(output: output) { playback in
            log.emit("audio-started", [("channel", .int(playback.channel.number))])
            Self.say("sound of \(playback.channel.number) started")
        }
    }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data("zapper: \(line)\n".utf8))
    }

    /// Stops the old channel at once and starts the new one.
    public func tune(_ channel: LineupChannel, reason: String) {
        playback?.stop(keepingSound: true)
        audio.end(fadeOut: true)
        serial += 1
        tuneStartedAt = log.now
        presentedFirst = false
        log.emit("tune", [("channel", .int(channel.number)), ("reason", .string(reason))])
        Self.say("tuning \(channel.number) \(channel.name)")
        let log = self.log
        let playback = ChannelPlayback(channel: channel, serial: serial, sampleRate: audio.sampleRate,
                                       parametersCache: parametersCache) { name, fields in
            log.emit(name, fields)
            if name == "load-failed", case .string(let error)? = fields.first(where: { $0.0 == "error" })?.1 {
                Self.say("channel \(channel.number): \(error)")
            }
        }
        self.playback = playback
        playback.start()
    }

    /// Runs until the script quits (exit code 0), a script step fails (1), or forever without a script.
    public func run(startChannel: LineupChannel) -> Int32 {
        tune(startChannel, reason: "start")
        var script = ScriptRunner(lines: options.script, log: log)
        let tick = 1.0 / 60
        var next = AudioPump.wall()
        while true {
            present()
            switch script.step(snapshot: { try self.snapshot($0) }) {
            case .running: break
            case .quit:
                playback?.stop()
                return 0
            case .failed(let reason):
                Self.say("script: \(reason)")
                playback?.stop()
                return 1
            }
            next += tick
            let now = AudioPump.wall()
            if next > now {
                Thread.sleep(forTimeInterval: next - now)
            } else {
                next = now  // late: no catching up with a burst of ticks
            }
        }
    }

    /// One vblank of the offscreen display: the picture due now, if any.
    private func present() {
        guard let playback else { return }
        watchForStarvation(playback)
        // A picture is due when its time falls before the middle of this vblank's interval.
        let clock = presentedFirst ? audio.clock.map { $0 + 0.5 / 60 } : nil
        guard let picture = playback.picture(at: clock) else { return }
        let time = picture.time
        do {
            try scaler.draw(picture.frame, into: &framebuffer)
        } catch {
            Self.say("picture: \(error)")
            return
        }
        if options.traceFrames {
            log.emit("frame", [("pts_ms", .int(Int((time * 1000).rounded()))),
                               ("clock_ms", .int(clock.map { Int(($0 * 1000).rounded()) } ?? -1)),
                               ("luma", .int(framebuffer.meanLuma()))])
        }
        if playback.failures.recovers(segment: picture.segment), presentedFirst {
            log.emit("load-recovered", [("channel", .int(playback.channel.number)), ("gap_ms", .int(log.now - lastPictureAt))])
            Self.say("channel \(playback.channel.number) is playing again")
        }
        lastPictureAt = log.now
        if !presentedFirst {
            presentedFirst = true
            audio.begin(playback, at: time)
            let zap = log.now - tuneStartedAt
            log.emit("first-frame", [("channel", .int(playback.channel.number)), ("zap_ms", .int(zap))])
            Self.say("first frame of \(playback.channel.number) in \(zap) ms")
        }
    }

    /// A playing channel whose pictures stopped coming is a failure the viewer sees,
    /// whatever the network said: reported once, recovered at the next picture.
    private func watchForStarvation(_ playback: ChannelPlayback) {
        guard presentedFirst, log.now - lastPictureAt > Self.starvedAfterMilliseconds else { return }
        if !playback.failures.isFailing {
            playback.failures.failed()
            log.emit("load-failed", [("channel", .int(playback.channel.number)),
                                     ("error", .string("no picture for \(Self.starvedAfterMilliseconds / 1000) s"))])
            Self.say("channel \(playback.channel.number): no picture for \(Self.starvedAfterMilliseconds) ms")
        }
    }

    private func snapshot(_ path: String) throws {
        try PNGWriter.write(pixels: framebuffer.pixels, width: framebuffer.width, height: framebuffer.height,
                            stride: framebuffer.stride, to: path)
        log.emit("snapshot", [("path", .string(path))])
    }
}

/// Carries out an automation script one step per tick.
struct ScriptRunner {
    enum State { case running, quit, failed(String) }

    let lines: [ScriptLine]
    let log: EventLog
    private var index = 0
    private var lineStartedAt: Int?
    private var mark = 0

    init(lines: [ScriptLine], log: EventLog) {
        self.lines = lines
        self.log = log
    }

    mutating func step(snapshot: (String) throws -> Void) -> State {
        while index < lines.count {
            let line = lines[index]
            if lineStartedAt == nil {
                lineStartedAt = log.now
                mark = log.count
            }
            let elapsed = log.now - lineStartedAt!
            switch line.command {
            case .wait(let ms):
                guard elapsed >= ms else { return .running }
            case .waitEvent(let name, let timeout):
                if log.first(name, after: mark) == nil {
                    if elapsed >= timeout { return .failed("line \(line.line): no \(name) event within \(timeout) ms") }
                    return .running
                }
            case .snapshot(let path):
                do {
                    try snapshot(path)
                } catch {
                    return .failed("line \(line.line): \(error)")
                }
            case .quit:
                return .quit
            case .press, .hold:
                return .failed("line \(line.line): key presses come with the flipping issue")
            }
            index += 1
            lineStartedAt = nil
        }
        return .running
    }
}

