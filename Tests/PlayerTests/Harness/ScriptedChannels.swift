import Foundation
import ZapperCore
import ZapperMedia

/// How a scripted channel behaves on the virtual clock.
struct ChannelScript: Sendable {
    /// The colour of its pictures, and the level of its (constant) sound.
    var colour: (red: Int, green: Int, blue: Int)
    var soundLevel: Int16 = 8000
    /// With a frequency, the sound is a square wave of `soundLevel` at it (nil: constant).
    var soundHz: Int?
    /// Its first picture comes this long after it starts (or, warm, after its promotion).
    var firstPictureAfter = 200
    /// With a value, its first picture is a still (a warm neighbour's kept key frame), and the
    /// stream's own pictures and sound follow it this many milliseconds later.
    var stillFor: Int?
    /// The tunes counted in `failingTunes` (the first is 1) fail with `failure` this long after they start.
    var failure: PlaybackFailure?
    var failAfter = 100
    var failingTunes = 1...Int.max
    /// In the tunes counted in `stallingTunes`, pictures stop this long after the first one (a frozen channel).
    var picturesStopAfter: Int?
    var stallingTunes = 1...Int.max
    var framesPerSecond = 25.0
    /// Its sound stops this long after the first picture (the pictures go on).
    var soundStopsAfter: Int?
    /// Its pictures (which otherwise move: every other one a shade lighter) repeat one picture,
    /// or turn black, this long after the first one, in the tunes counted in `stallingTunes`.
    var pictureFreezesAfter: Int?
    var pictureBlackAfter: Int?
    /// The channel's further sources (`LineupChannel.backups`), each behaving as scripted.
    var backups: [ChannelScript] = []
    /// With lines, the channel offers closed captions CC1 ("English"), which show these lines while chosen.
    var captions: [String]?
    /// Its audio languages (the first plays unless another is asked for), each at its own sound level.
    var languages: [ScriptedLanguage] = []
    /// Its subtitle renditions; each, followed, has one cue all along: "<name> (<language>)".
    var subtitles: [ScriptedLanguage] = []
    /// The lineup's `tvg-rating` for it.
    var rating: String?

    /// Source `index` of channel `number`: its URL in the harness's lineup.
    static func url(channel number: Int, source index: Int = 0) -> URL {
        URL(string: "http://scripted.invalid/\(number)\(index == 0 ? "" : "-\(index + 1)").m3u8")!
    }
}

/// An audio language or subtitle rendition of a scripted channel.
struct ScriptedLanguage: Sendable {
    var language: String
    var name: String
    /// The level of its sound (audio languages).
    var soundLevel: Int16 = 8000

    func rendition(_ type: HLSRendition.MediaType) -> HLSRendition {
        var rendition = HLSRendition(type: type, groupID: type.rawValue, name: name)
        rendition.language = language
        rendition.uri = URL(string: "http://scripted.invalid/\(type.rawValue)/\(language).m3u8")
        return rendition
    }
}

/// Channels that behave as scripted, with no network and no thread: pictures and
/// sound are made as the player asks for them, failures reported when the harness
/// polls (`poll`) after moving the clock.
final class ScriptedChannelSource: ChannelSource, @unchecked Sendable {
    private let lock = NSLock()
    /// By source URL (`ChannelScript.url`).
    private let scripts: [URL: ChannelScript]
    private let clock: VirtualClock
    private var streams: [ScriptedStream] = []
    private var tunes: [URL: Int] = [:]
    /// Every stream opened: channel number, whether it was warm, and the source's URL.
    private(set) var opened: [(channel: Int, warm: Bool, url: URL)] = []

    init(scripts: [Int: ChannelScript], clock: VirtualClock) {
        var byURL: [URL: ChannelScript] = [:]
        for (number, script) in scripts {
            for (index, source) in ([script] + script.backups).enumerated() { byURL[ChannelScript.url(channel: number, source: index)] = source }
        }
        self.scripts = byURL
        self.clock = clock
    }

    func open(_ channel: LineupChannel, serial: Int?, audioLanguage: String?, report: @escaping ChannelReport) -> any ChannelStream {
        lock.withLock {
            let script = scripts[channel.url] ?? ChannelScript(colour: (128, 128, 128))
            let stream = ScriptedStream(channel: channel, serial: serial, script: script, audioLanguage: audioLanguage, clock: clock,
                                        report: report) { [weak self] in
                self?.countTune(channel.url) ?? 0
            }
            streams.append(stream)
            streams.removeAll { $0.isStopped }
            opened.append((channel.number, serial == nil, channel.url))
            return stream
        }
    }

    /// The channels kept warm now: opened warm, not promoted, not stopped.
    var warmNow: Set<Int> {
        lock.withLock { Set(streams.filter { !$0.isStopped && $0.isWarm }.map(\.channel.number)) }
    }

    private func countTune(_ url: URL) -> Int {
        lock.withLock {
            tunes[url, default: 0] += 1
            return tunes[url]!
        }
    }

    /// Tells the failures that are due by now.
    func poll() {
        for stream in lock.withLock({ streams }) { stream.poll() }
    }
}

/// One tune of a scripted channel.
final class ScriptedStream: ChannelStream, @unchecked Sendable {
    let channel: LineupChannel
    let failures = FailureMark()
    let tracks: any ChannelTrackList
    private let scriptedTracks: ScriptedTracks
    /// The closed captions the player asked for last.
    private(set) var chosenCaptions: CaptionChannel?
    private let lock = NSLock()
    private let script: ChannelScript
    private let clock: VirtualClock
    private let report: ChannelReport
    private let countTune: () -> Int
    private var tuneSerial: Int?
    private var startedAt: Double?
    private var tuneNumber = 0
    private var failureTold = false
    private var firstShownAt: Double?
    private var lastTime = -1.0
    private var stillShownAt: Double?
    private var stopped = false
    private let frame: Frame
    /// Every other picture: the colour a shade lighter (the picture moves, its colour stays).
    private let shade: Frame
    private let black: Frame

    init(channel: LineupChannel, serial: Int?, script: ChannelScript, audioLanguage: String?, clock: VirtualClock,
         report: @escaping ChannelReport, countTune: @escaping () -> Int) {
        self.channel = channel
        tuneSerial = serial
        self.script = script
        self.clock = clock
        self.report = report
        self.countTune = countTune
        scriptedTracks = ScriptedTracks(script: script, audioLanguage: audioLanguage)
        tracks = scriptedTracks
        frame = try! Frame.solid(width: 64, height: 36, red: script.colour.red, green: script.colour.green, blue: script.colour.blue)
        shade = try! Frame.solid(width: 64, height: 36, red: min(255, script.colour.red + 4), green: min(255, script.colour.green + 4),
                                 blue: min(255, script.colour.blue + 4))
        black = try! Frame.solid(width: 64, height: 36, red: 16, green: 16, blue: 16)
    }

    var serial: Int { lock.withLock { tuneSerial ?? 0 } }
    var isStopped: Bool { lock.withLock { stopped } }
    var isWarm: Bool { lock.withLock { tuneSerial == nil } }

    func start() {
        lock.withLock { if tuneSerial != nil { begin() } }
    }

    func promote(serial: Int) {
        lock.withLock {
            tuneSerial = serial
            begin()
        }
    }

    /// A tune begins (under the lock): counted, its clock started.
    private func begin() {
        startedAt = clock.monotonic
        tuneNumber = countTune()
    }

    private var failing: Bool { script.failure != nil && script.failingTunes.contains(tuneNumber) }

    func stop(keepingSound: Bool) { lock.withLock { stopped = true } }
    /// What the player asked it to keep while behind live (nil: never asked).
    private var keptBehindLive: TimeshiftBudget?
    var behindLiveBudget: TimeshiftBudget? { lock.withLock { keptBehindLive } }
    func keepBehindLive(_ budget: TimeshiftBudget) { lock.withLock { keptBehindLive = budget } }
    func chooseAudio(language: String) { scriptedTracks.choose(language) }

    func poll() {
        let due: (PlaybackFailure, Int)? = lock.withLock {
            guard !stopped, !failureTold, failing, let startedAt, let serial = tuneSerial, let failure = script.failure,
                  clock.monotonic >= startedAt + Double(script.failAfter) / 1000 else { return nil }
            failureTold = true
            failures.failed()
            return (failure, serial)
        }
        if let (failure, serial) = due { report(.failed(failure), serial) }
    }

    func picture(at time: Double?) -> TimedPicture? {
        lock.withLock {
            let now = clock.monotonic
            guard !stopped, !failing, let startedAt, now >= startedAt + Double(script.firstPictureAfter) / 1000 else { return nil }
            if let first = firstShownAt, let stop = script.picturesStopAfter, script.stallingTunes.contains(tuneNumber),
               now > first + Double(stop) / 1000 { return nil }
            guard let time else {
                if let still = script.stillFor {
                    guard let stillShownAt else {
                        stillShownAt = now
                        return TimedPicture(time: 0, picture: frame, segment: 1, isStill: true)
                    }
                    guard now >= stillShownAt + Double(still) / 1000 else { return nil }
                    // The stream caught up: its next picture, and its sound from then on.
                    firstShownAt = now
                    lastTime = 1 / script.framesPerSecond
                    return TimedPicture(time: lastTime, picture: shade, segment: 1)
                }
                firstShownAt = now
                lastTime = 0
                return TimedPicture(time: 0, picture: frame, segment: 1)
            }
            let due = (time * script.framesPerSecond).rounded(.down) / script.framesPerSecond
            guard due > lastTime else { return nil }
            // The pictures between the last one shown and this one were due too: dropped unseen.
            let passed = max(0, Int(((due - lastTime) * script.framesPerSecond).rounded()) - 1)
            lastTime = due
            let since = firstShownAt.map { (now - $0) * 1000 } ?? 0
            let stalling = script.stallingTunes.contains(tuneNumber)
            let picture: Frame = if let after = script.pictureBlackAfter, stalling, since > Double(after) {
                black
            } else if let after = script.pictureFreezesAfter, stalling, since > Double(after) {
                frame
            } else {
                Int((due * script.framesPerSecond).rounded()) % 2 == 0 ? frame : shade
            }
            return TimedPicture(time: due, picture: picture, segment: 1 + Int(due / 2), dropped: passed)
        }
    }

    func takeAudio(frames: Int, from time: Double) -> AudioTake? {
        lock.withLock {
            // Sound from the first picture on; after a stop too, for the fade-out.
            guard let firstShownAt else { return nil }
            if let stop = script.soundStopsAfter, clock.monotonic > firstShownAt + Double(stop) / 1000 { return nil }
            let level = scriptedTracks.playing?.soundLevel ?? script.soundLevel
            guard let hz = script.soundHz else {
                return AudioTake(time: time, samples: [Int16](repeating: level, count: frames * 2), lead: 0)
            }
            let samples = (0..<frames).flatMap { frame -> [Int16] in
                let half = Int(((time + Double(frame) / 48_000) * Double(hz) * 2).rounded(.down))
                return half % 2 == 0 ? [level, level] : [-level, -level]
            }
            return AudioTake(time: time, samples: samples, lead: 0)
        }
    }

    func chooseCaptions(_ channel: CaptionChannel?) { lock.withLock { chosenCaptions = channel } }

    func captionLines(at time: Double) -> [String] {
        lock.withLock { chosenCaptions == .cea608(1) ? script.captions ?? [] : [] }
    }

    func followSubtitles(_ rendition: HLSRendition, url: URL, from startSequence: Int64,
                         cues: @escaping @Sendable ([SubtitleCue]) -> Void,
                         trouble: @escaping @Sendable (SubtitleTrouble) -> Void) -> any SubtitleFollower {
        if let language = rendition.language {
            cues([SubtitleCue(start: 0, end: 40_000, text: "\(rendition.name) (\(language))", sequence: startSequence, discontinuitySequence: 0)])
        }
        return NoSubtitles()
    }
}

/// A scripted channel's languages, subtitles and closed captions (CC1 when its script has captions);
/// its timeline has no discontinuities.
final class ScriptedTracks: ChannelTrackList, @unchecked Sendable {
    private let lock = NSLock()
    private let script: ChannelScript
    private var language: String?

    init(script: ChannelScript, audioLanguage: String?) {
        self.script = script
        language = script.languages.first { $0.language == audioLanguage }?.language ?? script.languages.first?.language
    }

    func choose(_ wanted: String) {
        lock.withLock { if script.languages.contains(where: { $0.language == wanted }) { language = wanted } }
    }

    var playing: ScriptedLanguage? { lock.withLock { script.languages.first { $0.language == language } } }
    var audioRenditions: [HLSRendition] { script.languages.map { $0.rendition(.audio) } }
    var playingAudio: HLSRendition? { playing?.rendition(.audio) }
    var subtitleRenditions: [HLSRendition] { script.subtitles.map { $0.rendition(.subtitles) } }
    var captionTracks: [CaptionTrack] {
        script.captions != nil ? [CaptionTrack(channel: .cea608(1), name: "English", language: "en")] : []
    }
    var startSequence: Int64? { script.captions != nil || !script.subtitles.isEmpty ? 0 : nil }
    func offset(discontinuity sequence: Int64) -> Double? { sequence == 0 ? 0 : nil }
}

final class NoSubtitles: SubtitleFollower {}
