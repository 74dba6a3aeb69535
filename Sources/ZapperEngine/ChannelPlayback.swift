import Foundation
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
    public var isWarm: Bool { tag.serial == nil }
    let session: ChannelSession
    /// Every request of this channel (playlists, segments, keys, sections, renditions) carries its lineup headers.
    let fetcher: HTTPFetcher
    let parametersCache: ParametersCache
    let report: @Sendable (PlaybackNews) -> Void

    let condition = NSCondition()
    var deliveries: [(delivery: HLSSegmentDelivery, index: Int)] = []
    /// Health as the viewer sees it: segments count up as they arrive; a failure
    /// marks how many had arrived, and a picture from a later one ends it.
    public let failures = FailureMark()
    var current: ByteQueue?
    var stopped = false
    /// The sound's own feed when the playing audio rendition has a playlist of its own.
    var audioFeed: AudioRenditionFeed?
    /// Decoded pictures waiting for their time.
    private var pictures: [TimedPicture] = []
    /// Converted audio waiting for the output (from `samplesStart` on), and the
    /// timeline time of its first waiting sample. Taken by moving `samplesStart`,
    /// so the audio thread never shifts the whole buffer.
    private var samples: [Int16] = []
    private var samplesStart = 0
    private var samplesTime: Double?
    private var waitingSamples: Int { samples.count - samplesStart }
    public let sampleRate: Int
    static let maxPictures = 24
    /// Decoded pictures wait in memory up to this many bytes too (about ten 1080p
    /// pictures, a third of a second): the queue's main cost in resident memory.
    static let maxPictureBytes = 32 << 20
    static let maxAudioSeconds = 1.0
    /// Unreadable packets in a row a decoder may skip before the segment fails.
    static let skippedPackets = 16
    /// How far (in frames, about 2 ms) a block may sit off the queue's end before it is realigned.
    static let audioSlackFrames = 96
    static let debugTimeline = ProcessInfo.processInfo.environment["ZAPPER_DEBUG_TIMELINE"] != nil

    /// A playback for tune `serial`, or (serial nil) a warm neighbour: its session
    /// follows the live edge at the lowest variant keeping only the newest
    /// segment (a raw MPEG-TS stream: the bytes from its latest key frame), nothing is decoded and nothing reported until `promote`.
    public init(channel: LineupChannel, serial: Int?, sampleRate: Int, parametersCache: ParametersCache,
                audioLanguage: String? = nil, report: @escaping ChannelReport) {
        self.channel = channel
        let tracks = ChannelTracks(audioLanguage: audioLanguage)
        trackState = tracks
        let tag = TuneTag(serial: serial)
        self.tag = tag
        self.sampleRate = sampleRate
        self.parametersCache = parametersCache
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
                                 variantCap: { tag.serial == nil ? 0 : nil }, isWarm: { tag.serial == nil }) { event in
            switch event {
            case .masterLoaded(let master):
                tracks.loaded(master)
            case .variantChosen(let index, _, _):
                tracks.chose(variant: index)
                owner.value?.followAudioRendition(startingAt: nil)
            case .cue(let cue):
                report(.cue(cue))
            case .rawStream, .streamEnded, .streamResumed:
                // A raw MPEG-TS stream's connections, for a person reading the log.
                guard !tag.isEnded else { return }
                // A warm raw stream that flows (again) has no failure left to tell at promotion.
                if case .streamEnded = event {} else { tag.warmFailure = nil }
                FileHandle.standardError.write(Data("zapper: channel \(channel.number): \(event.line)\n".utf8))
            default:
                if let failure = event.failure { report(.failed(failure)) }
            }
        }
        bufferedSeconds = buffered
        owner.value = self
        session.waitsForRoom { owner.value?.hasRoom ?? true }
    }

    /// Whether the session may fetch another segment: a warm neighbour keeps only its newest.
    private var hasRoom: Bool {
        condition.withLock {
            isWarm || SegmentLimits.hasRoom(segments: deliveries.count, seconds: deliveries.reduce(0) { $0 + $1.delivery.duration },
                                            bytes: deliveries.reduce(0) { $0 + $1.delivery.bytes.appendedCount })
        }
    }

    let bufferedSeconds: SharedDouble
    /// Its audio languages and subtitles, and the audio asked for.
    let trackState: ChannelTracks
    public var tracks: any ChannelTrackList { trackState }
    /// The chosen closed captions, decoded from the pictures.
    let captionFeed = CaptionFeed()
    public func chooseCaptions(_ channel: CaptionChannel?) { captionFeed.choose(channel) }
    public func captionLines(at time: Double) -> [String] { captionFeed.lines(at: time) }

    public func start() {
        startPipeline(session, threadName: "zapper-decode-\(channel.number)")
    }

    func receive(_ delivery: HLSSegmentDelivery) {
        condition.lock()
        defer { condition.unlock() }
        if stopped {
            delivery.bytes.cancel()
            return
        }
        if isWarm {
            // A warm neighbour keeps only the newest segment.
            for waiting in deliveries { waiting.delivery.bytes.cancel() }
            deliveries.removeAll()
        }
        deliveries.append((delivery, failures.arrived()))
        tag.warmFailure = nil  // whatever failed while warm is over
        condition.broadcast()
    }

    /// A warm neighbour becomes tune `serial`: decoding starts at its newest segment.
    public func promote(serial: Int) {
        condition.lock()
        tag.promote(to: serial)
        condition.broadcast()
        condition.unlock()
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
        condition.lock()
        guard !stopped, audioFeed?.url != wanted else {
            condition.unlock()
            return
        }
        let old = audioFeed
        let tag = self.tag
        let report = self.report
        audioFeed = wanted.map { url in
            AudioRenditionFeed(url: url, fetcher: fetcher, channel: channel.number, startSequence: old == nil ? nil : sequence, sampleRate: sampleRate,
                               tracks: trackState, parametersCache: parametersCache, isWarm: { tag.serial == nil },
                               sink: { [weak self] feed, samples, time in self?.enqueue(audio: samples, at: time, from: feed) ?? false },
                               failed: { report(.audioFailed($0)) })
        }
        if old != nil {
            // The old language's sound goes; the new one's follows.
            samples.removeAll()
            samplesStart = 0
            samplesTime = nil
        }
        let new = audioFeed
        condition.broadcast()
        condition.unlock()
        old?.stop()
        new?.start()
    }

    func dropQueuedSound() {
        condition.lock()
        samples.removeAll()
        samplesStart = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Cancels fetching and wakes the decode thread; returns at once. With
    /// `keepingSound`, the decoded sound stays for a fade-out.
    public func stop(keepingSound: Bool = false) {
        tag.isEnded = true
        condition.lock()
        stopped = true
        current?.cancel()
        for waiting in deliveries { waiting.delivery.bytes.cancel() }
        deliveries.removeAll()
        audioFeed?.stop()
        pictures.removeAll()
        if !keepingSound {
            samples.removeAll()
            samplesStart = 0
        }
        condition.broadcast()
        condition.unlock()
        session.cancel()
    }

    // MARK: consumer side (presenter and audio threads)

    /// The newest picture due at `time`, dropping older ones (late pictures are dropped, not queued).
    public func picture(at time: Double?) -> TimedPicture? {
        condition.lock()
        defer { condition.unlock() }
        guard let first = pictures.first else { return nil }
        guard let time else {
            // Nothing presented yet: the first picture shows at once.
            pictures.removeFirst()
            condition.broadcast()
            return first
        }
        var chosen: TimedPicture?
        var passed = 0
        while let next = pictures.first, next.time <= time {
            if chosen != nil { passed += 1 }
            chosen = pictures.removeFirst()
        }
        if chosen != nil { condition.broadcast() }
        return chosen?.dropping(passed)
    }

    /// Takes `frames` stereo frames of audio starting at `time`: older samples are
    /// dropped, and where the waiting samples start later, silence leads in, so
    /// the sound never runs ahead of the timeline (`lead`: how many frames of it).
    /// Nil when nothing is waiting.
    public func takeAudio(frames: Int, from time: Double) -> AudioTake? {
        condition.lock()
        defer { condition.unlock() }
        guard var start = samplesTime, waitingSamples > 0 else { return nil }
        let late = Int(((time - start) * Double(sampleRate)).rounded(.down))
        if late > 0 {
            let drop = min(late * 2, waitingSamples)
            samplesStart += drop
            start += Double(drop / 2) / Double(sampleRate)
        }
        guard waitingSamples > 0 else {
            // All of it was late: the decode thread may be waiting for this room.
            samplesTime = start
            condition.broadcast()
            return nil
        }
        let lead = min(frames, max(0, Int(((start - time) * Double(sampleRate)).rounded())))
        let count = min((frames - lead) * 2, waitingSamples)
        var chunk = [Int16](repeating: 0, count: lead * 2)
        chunk += samples[samplesStart..<samplesStart + count]
        samplesStart += count
        samplesTime = start + Double(count / 2) / Double(sampleRate)
        condition.broadcast()
        return AudioTake(time: lead > 0 ? time : start, samples: chunk, lead: lead)
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    var bufferedAhead: Double {
        condition.lock()
        defer { condition.unlock() }
        return deliveries.reduce(0) { $0 + $1.delivery.duration } + Double(waitingSamples / 2) / Double(sampleRate)
    }

    /// Waits for room; false when the playback stopped.
    func enqueue(picture frame: Frame, at time: Double, segment: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while (pictures.count >= Self.maxPictures || pictures.reduce(0, { $0 + $1.picture.byteSize }) >= Self.maxPictureBytes) && !stopped {
            // Never wait on pictures while the sound behind them in the same stream has run
            // dry: drop the oldest instead. (Sound from a rendition of its own comes from its
            // own thread, which waiting here cannot hold up; dropping would only race ahead.)
            if waitingSamples == 0 && samplesTime != nil && audioFeed == nil { pictures.removeFirst(); break }
            condition.wait()
        }
        guard !stopped else { return false }
        pictures.append(TimedPicture(time: time, picture: frame, segment: segment))
        return true
    }

    /// Queues decoded sound; false once the playback stopped, or `feed` is no longer its sound's feed.
    func enqueue(audio converted: [Int16], at time: Double, from feed: AudioRenditionFeed? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        func wanted() -> Bool { !stopped && (feed == nil || feed === audioFeed) }
        while Double(waitingSamples / 2) / Double(sampleRate) >= Self.maxAudioSeconds && wanted() {
            condition.wait()
        }
        guard wanted() else { return false }
        var block = converted[...]
        if let start = samplesTime, waitingSamples > 0 {
            // The queue is one run of sound: a block that overlaps its end (AAC
            // padding at a discontinuity) loses the overlap, a block after a gap is
            // led in by silence, so the sound stays on its timestamps for days.
            let frames = Int(((time - (start + Double(waitingSamples / 2) / Double(sampleRate))) * Double(sampleRate)).rounded())
            if frames < -Self.audioSlackFrames {
                block = block.dropFirst(min(-frames * 2, block.count))
            } else if frames > Self.audioSlackFrames {
                samples += [Int16](repeating: 0, count: min(frames, sampleRate) * 2)
            }
        } else {
            samplesTime = time
        }
        // Reclaim what the audio thread has taken, here on the decode thread.
        if samplesStart > 0 {
            samples.removeFirst(samplesStart)
            samplesStart = 0
        }
        samples += block
        return true
    }
}
