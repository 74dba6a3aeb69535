import Foundation
import Synchronization
import ZapperCore
import ZapperHLS
import ZapperMedia

/// One tune of one channel: our HLS client fetching (or a raw MPEG-TS stream's
/// connection, `ChannelSession`), and a demux/decode
/// thread turning segments into pictures and sound on one timeline (in
/// seconds; each discontinuity is spliced onto the end of the last one).
/// Bounded queues pace decoding; `stop` cancels everything without waiting.
public final class ChannelPlayback: ChannelStream, SegmentPipeline, @unchecked Sendable {
    public let channel: LineupChannel
    /// The tune this playback serves; nil while it is a warm neighbour.
    let tag: TuneTag
    public var serial: Int { tag.serial ?? 0 }
    let session: ChannelSession
    /// Every request of this channel (playlists, segments, keys, sections, renditions) carries its lineup headers.
    let fetcher: HTTPFetcher
    let parametersCache: ParametersCache
    /// How many threads its video decoders get (one, until one is too slow on this box).
    let decoderThreads: DecoderThreads
    let decodeCeiling: DecodeCeiling
    /// Whether its pictures coded as fields are deinterlaced (`PicturePath`).
    let deinterlace: DeinterlaceSwitch
    let report: @Sendable (PlaybackNews) -> Void

    /// Segments waiting for the decode thread.
    let inbox: SegmentInbox
    /// Health as the viewer sees it: segments count up as they arrive; a failure
    /// marks how many had arrived, and a picture from a later one ends it.
    public let failures = FailureMark()
    /// Decoded pictures waiting for their time, and decoded sound waiting for the output.
    let pictures: PictureQueue
    let samples: SampleQueue
    /// Guards `audioFeed` and `stopped`.
    private let lock = NSLock()
    private var stopped = false
    /// The sound's own feed when the playing audio rendition has a playlist of its own.
    private var audioFeed: AudioRenditionFeed?
    /// Set once it is paused or played behind live (`keepBehindLive`).
    private var behindLive: TimeshiftBudget?
    public let sampleRate: Int
    static let maxPictures = 24
    /// Decoded pictures wait in memory up to this many bytes too (three 1080p pictures, 0.1 s at
    /// 30 fps), but at least `minPictures` of any size (4K): the queue's main cost in resident memory. The decoder keeps ahead of
    /// the clock with that. Playing 1080p (`zapper-bench playback`, its metrics): at 32 MB the
    /// steady RSS was 205 MB, at 16 MB 188-189 MB; later, with the allocator's fixed threshold
    /// and a one-thread decoder, 165-166 MB at 16 MB and 155 MB at 8 MB, with no picture late
    /// or dropped in 40 s.
    static let maxPictureBytes = 8 << 20
    static let minPictures = 3
    /// ... and six (120 ms) while a deinterlacer gives two a frame: measured playing 1080i25
    /// (`zapper-bench deinterlace`), with three 673 of 2,997 fields in a minute went unshown, with six none.
    static let minFieldPictures = 6
    static let maxAudioSeconds = 1.0
    /// Unreadable packets in a row a decoder may skip before the segment fails.
    static let skippedPackets = 16
    /// Video packets passed over waiting for a stream's first key frame, at most (about 10 s at 25 a second).
    static let waitForKey = 250
    static let debugTimeline = ProcessInfo.processInfo.environment["ZAPPER_DEBUG_TIMELINE"] != nil

    /// A playback for tune `serial`, or (serial nil) a warm neighbour: its session
    /// follows the live edge at the lowest variant keeping only the newest
    /// segment (a raw MPEG-TS stream: the bytes from its latest key frame), nothing is decoded and nothing reported until `promote`.
    public init(channel: LineupChannel, serial: Int?, sampleRate: Int, parametersCache: ParametersCache,
                audioLanguage: String? = nil, warmMemory: WarmMemory = .shared, decoderThreads: DecoderThreads = .shared, decodeCeiling: DecodeCeiling = DecodeCeiling(),
                deinterlace: DeinterlaceSwitch = DeinterlaceSwitch(), audioPreferences: AudioPreferences = AudioPreferences(),
                screen: ScreenSize = ScreenSize(), report: @escaping ChannelReport) {
        self.channel = channel
        self.deinterlace = deinterlace
        self.decoderThreads = decoderThreads
        self.decodeCeiling = decodeCeiling
        let tracks = ChannelTracks(audioLanguage: audioLanguage, preferences: audioPreferences)
        trackState = tracks
        let tag = TuneTag(serial: serial)
        self.tag = tag
        self.sampleRate = sampleRate
        self.parametersCache = parametersCache
        inbox = SegmentInbox(warmKeeps: 1) { tag.serial == nil }
        let pictures = PictureQueue(maxCount: Self.maxPictures, maxBytes: Self.maxPictureBytes, minCount: Self.minPictures)
        self.pictures = pictures
        samples = SampleQueue(sampleRate: sampleRate, maxSeconds: Self.maxAudioSeconds) { pictures.wake() }
        let buffered = SharedDouble(10)
        let failures = self.failures
        let owner = WeakPlayback()
        let report: @Sendable (PlaybackNews) -> Void = { news in
            guard !tag.isEnded else { return }
            guard let serial = tag.serial else {
                // A warm neighbour keeps its last failure for the moment it is promoted.
                if case .failed(let failure) = news { tag.warmFailure = failure }
                return
            }
            if case .failed = news { failures.failed() }
            report(news, serial)
        }
        self.report = report
        let fetcher = HTTPFetcher.shared.with(channel.headers)
        self.fetcher = fetcher
        session = ChannelSession(url: channel.url, fetcher: fetcher, bufferedSeconds: { buffered.value },
                                 variantCap: { tag.serial == nil ? 0 : nil }, pictureCeiling: { decodeCeiling.pixels },
                                 screen: { screen.current },
                                 isWarm: { tag.serial == nil },
                                 masters: .shared, warmMemory: warmMemory) { event in
            switch event {
            case .masterLoaded(let master):
                tracks.loaded(master)
            case .variantChosen(let index, _, _):
                tracks.chose(variant: index)
                owner.value?.followAudioRendition(startingAt: nil)
            case .cue(let cue):
                report(.cue(cue))
            case .warmHeads(_?, _):
                break  // the usual way, at every flip: not worth a line
            case .rawStream, .streamEnded, .streamResumed, .warmHeads:
                // A raw MPEG-TS stream's connections, and a warm neighbour kept the old way (and why), for a person reading the log.
                guard !tag.isEnded else { return }
                // A warm raw stream that flows (again) has no failure left to tell at promotion.
                if case .rawStream = event { tag.warmFailure = nil }
                if case .streamResumed = event { tag.warmFailure = nil }
                FileHandle.standardError.write(Data("zapper: channel \(channel.number): \(event.line)\n".utf8))
            default:
                if let failure = event.failure { report(.failed(failure)) }
            }
        }
        bufferedSeconds = buffered
        owner.value = self
        session.waitsForRoom { [inbox] in inbox.hasRoom }
    }

    let bufferedSeconds: SharedDouble
    /// Its audio languages and subtitles, and the audio asked for.
    let trackState: ChannelTracks
    public var tracks: any ChannelTrackList { trackState }
    /// Set by the decode thread when a segment carries sound and no picture.
    let soundOnly = Atomic<Bool>(false)
    public var isSoundOnly: Bool { soundOnly.load(ordering: .relaxed) }
    public var soundStart: Double? { samples.firstTime }
    /// The chosen closed captions, decoded from the pictures.
    let captionFeed = CaptionFeed()
    public func chooseCaptions(_ channel: CaptionChannel?) { captionFeed.choose(channel) }
    /// The chosen DVB subtitles, decoded on the decode thread.
    let bitmapFeed = BitmapSubtitleFeed()
    public func chooseBitmapSubtitles(_ track: BitmapSubtitleTrack?) { bitmapFeed.choose(track) }
    public func bitmapSubtitle(at time: Double) -> SubtitleBitmap? { bitmapFeed.showing(at: time) }
    public func captionLines(at time: Double) -> [String] { captionFeed.lines(at: time) }

    public func start() {
        startPipeline(session, threadName: "zapper-decode-\(channel.number)")
    }

    func receive(_ delivery: HLSSegmentDelivery) {
        guard inbox.receive(delivery, numbered: failures.arrived) else { return }
        tag.warmFailure = nil  // whatever failed while warm is over
    }

    /// A warm neighbour becomes tune `serial`: decoding starts at the segment (or head) it keeps.
    public func promote(serial: Int) {
        let feed = lock.withLock {
            tag.promote(to: serial)
            return audioFeed
        }
        inbox.wake()
        session.promoted()
        feed?.wake()
        // A neighbour that was failing while warm says so at once, not at its next retry.
        if let failure = tag.warmFailure {
            tag.warmFailure = nil
            report(.failed(failure))
        }
    }

    /// Plays another of the stream's audio languages from the next packet on
    /// (muxed), or from the segment being played (a rendition of its own).
    public func chooseAudio(language: String) {
        trackState.requestAudio(language: language)
        // The picture on screen may still be the segment before the one being decoded.
        followAudioRendition(startingAt: trackState.decodingSequence.map { $0 - 1 })
    }

    /// Starts, replaces or ends the feed of a separate audio rendition as the
    /// playing rendition (the variant's group, the language asked for) requires.
    private func followAudioRendition(startingAt sequence: Int64?) {
        let wanted = trackState.separateAudio
        lock.lock()
        guard !stopped, audioFeed?.url != wanted else {
            lock.unlock()
            return
        }
        let old = audioFeed
        // The old language's sound goes; the new one's follows (and the old feed's is refused).
        let serial = old == nil ? samples.serial : samples.flush()
        let tag = self.tag
        let report = self.report
        audioFeed = wanted.map { url in
            AudioRenditionFeed(url: url, fetcher: fetcher, channel: channel.number, startSequence: old == nil ? nil : sequence,
                               tracks: trackState, parametersCache: parametersCache, isWarm: { tag.serial == nil },
                               samples: samples, serial: serial, failed: { report(.audioFailed($0)) })
        }
        let new = audioFeed
        if let behindLive { new?.keepBehindLive(behindLive) }
        lock.unlock()
        old?.stop()
        new?.start()
    }

    /// Paused or behind live: the session fetches on (HLS segments, a raw stream's bytes) while the
    /// decoder waits, up to `budget`; its separate audio rendition likewise.
    public func keepBehindLive(_ budget: TimeshiftBudget) {
        inbox.keepBehindLive(budget)
        session.holdsRawBytes(budget.bytes)
        lock.withLock {
            behindLive = budget
            return audioFeed
        }?.keepBehindLive(budget)
    }

    /// Whether the sound comes from a rendition of its own (its own thread decodes it).
    var hasSeparateSound: Bool { lock.withLock { audioFeed != nil } }

    /// Cancels fetching and wakes the decode thread; returns at once. With
    /// `keepingSound`, the decoded sound stays for a fade-out.
    public func stop(keepingSound: Bool = false) {
        tag.isEnded = true
        let feed = lock.withLock {
            stopped = true
            return audioFeed
        }
        inbox.stop()
        feed?.stop()
        pictures.abort()
        samples.abort(keepingSound: keepingSound)
        session.cancel()
    }

    // MARK: consumer side (presenter and audio threads)

    /// The newest picture due at `time`, dropping older ones (late pictures are dropped, not queued).
    public func picture(at time: Double?) -> TimedPicture? {
        pictures.take(at: time)
    }

    /// Takes `frames` stereo frames of audio starting at `time` (`SampleRun.take`).
    public func takeAudio(frames: Int, from time: Double) -> AudioTake? {
        samples.take(frames: frames, from: time)
    }

    var bufferedAhead: Double { inbox.seconds + samples.waitingSeconds }

    /// Waits for room; false when the playback stopped.
    func enqueue(picture frame: Frame, at time: Double, segment: Int, still: Bool = false) -> Bool {
        pictures.push(TimedPicture(time: time, picture: frame, segment: segment, isStill: still)) {
            // Never wait on pictures while the sound behind them in the same stream has run
            // dry: drop the oldest instead. (Sound from a rendition of its own comes from its
            // own thread, which waiting here cannot hold up; dropping would only race ahead.)
            samples.hasRunDry && !hasSeparateSound
        }
    }
}
