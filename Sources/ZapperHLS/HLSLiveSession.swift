import AsyncHTTPClient
import Dispatch
import Foundation
import Synchronization
import ZapperCore

/// Plays one channel's HLS stream as a live client: loads the master
/// playlist, starts on the lowest variant, follows the media playlist at the
/// RFC's reload pace from HOLD-BACK behind the edge, fetches each new segment
/// on keep-alive connections and hands it on while its body streams in,
/// measures every download, steps variants up or down at segment
/// boundaries, and rides out failures (retry with backoff, skip what
/// expired, switch to a redundant copy of the variant on another host, fall
/// back to a lower variant) until cancelled.
public final class HLSLiveSession: Sendable {
    public let url: URL
    let fetcher: HTTPFetcher
    let keys: SegmentKeys
    let initSections: InitSections
    private let bufferedSeconds: @Sendable () -> Double
    let report: @Sendable (HLSEvent) -> Void
    /// The highest variant allowed now, as a rank in bandwidth order (0: the lowest, where a warm
    /// neighbour stays); nil: any.
    private let variantCap: @Sendable () -> Int?
    /// The fewest pixels this box decodes too slowly (nil: it keeps up with any): variants
    /// that large are not fetched (`VariantLadder.rank(fewerPixelsThan:)`).
    let pictureCeiling: @Sendable () -> Int?
    /// The screen's size now (nil: unknown): variants larger than the smallest that fills it
    /// are not fetched either (`VariantLadder.ceiling(forScreen:)`).
    let screen: @Sendable () -> HLSResolution?
    /// The media sequence to start at (an audio rendition joining a playing
    /// picture); nil: HOLD-BACK behind the live edge, and `leadSegments` more.
    private let startSequence: Int64?
    /// Segments to start before HOLD-BACK's: an audio rendition loaded a moment
    /// after the picture's playlist must not start after the picture does.
    private let leadSegments: Int
    /// For a rendition's media playlist: the variables of its master playlist (EXT-X-DEFINE IMPORT).
    private let masterVariables: HLSVariables?
    /// The URL's answer, already read (`ChannelSession` reads it to know the stream's kind).
    private let firstAnswer: (text: String, url: URL)?
    /// Whether `firstAnswer` is a master remembered from an earlier tune (`KnownMasters`): when
    /// its first media playlist fails, the session ends at once (`endedOnStaleMaster`) instead of
    /// retrying, for the master to be fetched afresh.
    let firstAnswerRemembered: Bool
    let staleMaster = Mutex(false)
    /// Whether the channel is a warm neighbour now (it keeps segment heads: `keepHeads`), and
    /// what tells the session it was promoted.
    let isWarm: @Sendable () -> Bool
    let promotion: PromotionSignal
    /// What warm neighbours start from, and where this session's measurements go.
    let warmMemory: WarmMemory
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Whether the consumer has room for another segment (nil: always).
    private let room = Mutex<(@Sendable () -> Bool)?>(nil)
    let continuation: AsyncStream<HLSSegmentDelivery>.Continuation
    /// The segments, in order; finishes when the session ends.
    public let segments: AsyncStream<HLSSegmentDelivery>

    public init(url: URL, fetcher: HTTPFetcher, bufferedSeconds: @escaping @Sendable () -> Double,
                variantCap: @escaping @Sendable () -> Int? = { nil }, pictureCeiling: @escaping @Sendable () -> Int? = { nil },
                screen: @escaping @Sendable () -> HLSResolution? = { nil },
                startSequence: Int64? = nil, leadSegments: Int = 0,
                masterVariables: HLSVariables? = nil, firstAnswer: (text: String, url: URL)? = nil,
                firstAnswerRemembered: Bool = false, isWarm: @escaping @Sendable () -> Bool = { false },
                promotion: PromotionSignal = PromotionSignal(), warmMemory: WarmMemory = .shared, events: @escaping @Sendable (HLSEvent) -> Void) {
        self.url = url
        self.isWarm = isWarm
        self.promotion = promotion
        self.warmMemory = warmMemory
        self.firstAnswer = firstAnswer
        self.firstAnswerRemembered = firstAnswerRemembered && firstAnswer != nil
        self.masterVariables = masterVariables
        self.startSequence = startSequence
        self.leadSegments = leadSegments
        self.variantCap = variantCap
        self.pictureCeiling = pictureCeiling
        self.screen = screen
        self.fetcher = fetcher
        keys = SegmentKeys(fetcher: fetcher)
        initSections = InitSections(fetcher: fetcher, keys: keys)
        self.bufferedSeconds = bufferedSeconds
        report = events
        (segments, continuation) = AsyncStream.makeStream(of: HLSSegmentDelivery.self)
    }

    public func start() {
        let started = Task { await self.run() }
        task.withLock { $0 = started }
    }

    /// Bounds what is fetched ahead: before each segment the session waits until
    /// `hasRoom` (the consumer's count of what it has waiting) says there is room.
    public func waitsForRoom(_ hasRoom: @escaping @Sendable () -> Bool) {
        room.withLock { $0 = hasRoom }
    }

    /// Stops fetching; the segment stream finishes.
    public func cancel() {
        task.withLock { $0?.cancel() }
        continuation.finish()
    }

    /// Whether the session ended because the remembered master it started from led nowhere.
    public var endedOnStaleMaster: Bool { staleMaster.withLock { $0 } }

    public static func now() -> Double { HTTPFetcher.now() }

    static func backoff(_ attempt: Int) -> Double { min(8, 0.5 * pow(2, Double(max(attempt, 1) - 1))) }

    /// Sleeps `seconds` (none when not positive); false when the task was cancelled.
    /// Every session of this module waits with it.
    static func pause(_ seconds: Double) async -> Bool {
        guard seconds > 0 else { return !Task.isCancelled }
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        return !Task.isCancelled
    }

    /// The fewest pixels not fetched now: the box's decode ceiling or the screen's, the lower;
    /// `screen` when the screen's is the one.
    func ceiling(in ladder: VariantLadder) -> (pixels: Int?, screen: Bool) {
        let decoded = pictureCeiling()
        guard let shown = screen().flatMap({ ladder.ceiling(forScreen: $0) }), shown < decoded ?? .max else { return (decoded, false) }
        return (shown, true)
    }

    private func run() async {
        defer { continuation.finish() }
        // The master (or a lone media) playlist, retried until it loads.
        var attempt = 0
        var first: HLSPlaylist?
        // Relative references resolve against the URL that finally answered (after redirects).
        var answered = url
        var given = firstAnswer
        while first == nil {
            do {
                let fetched: (text: String, url: URL)
                if let ready = given { fetched = ready } else { fetched = try await fetcher.document(url) }
                given = nil
                answered = fetched.url
                first = try HLSParser.parse(fetched.text, url: answered, masterVariables: masterVariables)
                if attempt > 0 { report(.playlistRecovered(url: url.absoluteString)) }
            } catch {
                // Cancelled (the channel or the rendition was left): an end, not a failure.
                if Task.isCancelled { return }
                attempt += 1
                report(.playlistFailed(url: url.absoluteString, failure: HTTPFailureKind.failure(error, url: url.absoluteString), attempt: attempt))
                guard await Self.pause(Self.backoff(attempt)) else { return }
            }
        }
        var variants: [HLSVariant] = []
        var pending: HLSMediaPlaylist?
        // What the media playlists may IMPORT (EXT-X-DEFINE).
        var imports = masterVariables
        switch first! {
        case .master(let master):
            variants = master.variants
            imports = master.variables
            report(.masterLoaded(master))
        case .media(let media): pending = media
        }
        // The chooser picks a rung; `current` is the variant of that rung in use (`VariantLadder`).
        let ladder = VariantLadder(variants)
        let chooser = VariantChooser(bandwidths: variants.isEmpty ? [1] : ladder.bandwidths)
        var rung = chooser.startIndex
        var current = variants.isEmpty ? 0 : ladder.rungs[rung][0]
        // Each rung's variant that gave a whole segment last, and how many of `current`'s rung
        // have failed since one did.
        var working = ladder.rungs.map { $0[0] }
        var tried = 1
        if !variants.isEmpty {
            report(.variantChosen(index: current, bandwidth: variants[current].bandwidth, reason: "start low for a fast first picture"))
        }
        var mediaURL = variants.isEmpty ? answered : variants[current].uri
        // Reloads go where the last load was redirected to (session-token services want that),
        // and back to `mediaURL` itself after a failure.
        var reloadURL = mediaURL
        /// Switches to variant `index`, its playlist loaded next.
        func choose(_ index: Int, _ reason: String) {
            current = index
            mediaURL = variants[current].uri
            reloadURL = mediaURL
            report(.variantChosen(index: current, bandwidth: variants[current].bandwidth, reason: reason))
        }
        var standIns = GapStandIns(variants: variants, ladder: ladder, fetcher: fetcher, imports: imports)
        var cursor = LiveSegmentCursor()
        if let startSequence { cursor.resume(at: startSequence) }
        var estimator = BandwidthEstimator()
        var failures = 0
        var stallReported = false
        var cues = CueMemory()
        var mediaLoaded = false
        if isWarm() {
            let rungs = Self.warmRungs(variants: variants, ladder: ladder, lone: answered, ceiling: ceiling(in: ladder).pixels)
            switch await keepHeads(rungs: rungs, imports: imports, estimator: &estimator) {
            case .promoted(let next, let kept):
                if !variants.isEmpty {
                    rung = kept.rung
                    choose(kept.variant, "the variant whose segment head was kept warm")
                }
                pending = nil
                cursor.resume(at: next)
            case .cold, .fallBack: break
            case .ended: return
            }
        }

        while !Task.isCancelled {
            let loadStarted = Self.now()
            let playlist: HLSMediaPlaylist
            if let ready = pending {
                playlist = ready
                pending = nil
            } else {
                do {
                    let fetched = try await fetcher.document(reloadURL)
                    reloadURL = fetched.url
                    guard case .media(let media) = try HLSParser.parse(fetched.text, url: fetched.url, masterVariables: imports) else {
                        throw HTTPFetcher.Failure(url: mediaURL.absoluteString, kind: .invalid, reason: "a master playlist where a media playlist was expected")
                    }
                    playlist = media
                    mediaLoaded = true
                    standIns.reloaded()
                    if failures > 0 { report(.playlistRecovered(url: mediaURL.absoluteString)) }
                    failures = 0
                } catch {
                    if Task.isCancelled { return }
                    if firstAnswerRemembered, !mediaLoaded {
                        staleMaster.withLock { $0 = true }
                        return
                    }
                    reloadURL = mediaURL
                    let failure = HTTPFailureKind.failure(error, url: mediaURL.absoluteString)
                    // A backup of the same variant first, at once (the viewer hears nothing of it);
                    // after repeated failures, the next lower variant.
                    if let backup = ladder.backup(after: current, tried: tried) {
                        tried += 1
                        report(.backupChosen(index: backup, failedURL: mediaURL.absoluteString, failure: failure))
                        choose(backup, "a backup of the variant that failed")
                        continue
                    }
                    failures += 1
                    report(.playlistFailed(url: mediaURL.absoluteString, failure: failure, attempt: failures))
                    if failures % 3 == 0, let lower = ladder.lower(than: rung) {
                        rung = lower
                        tried = 1
                        choose(working[rung], "failover after \(failures) failures")
                    }
                    guard await Self.pause(Self.backoff(failures)) else { return }
                    continue
                }
            }

            if cursor.nextSequence == nil, leadSegments > 0, let first = playlist.segments.first?.sequence {
                cursor.resume(at: max(first, LiveSegmentCursor.startSequence(playlist) - Int64(leadSegments)))
            }
            let update = cursor.update(playlist, at: loadStarted)
            if let expired = update.expired { report(.segmentsExpired(expired)) }
            if update.restarted { report(.restarted) }
            for cue in playlist.dateRanges where cues.isNew(cue) { report(.cue(cue)) }
            if cursor.isStalled(at: Self.now()) {
                if !stallReported { report(.stalled(url: mediaURL.absoluteString, seconds: Self.now() - (cursor.lastChange ?? 0))) }
                stallReported = true
            } else if cursor.lastReloadChanged {
                stallReported = false
            }

            var switched = false
            for segment in update.segments {
                if Task.isCancelled { return }
                // Variant changes happen at segment boundaries.
                if !variants.isEmpty {
                    let wanted = chooser.next(current: rung, estimate: estimator.estimate, bufferedSeconds: bufferedSeconds())
                    var next = wanted
                    if let cap = variantCap() { next = chooser.capped(next, atRank: cap) }
                    let ceiling = ceiling(in: ladder)
                    if let pixels = ceiling.pixels { next = chooser.capped(next, atRank: ladder.rank(fewerPixelsThan: pixels)) }
                    if next != rung {
                        let reason = ladder.bandwidths[next] > ladder.bandwidths[rung]
                            ? "measured \(Int((estimator.estimate ?? 0) / 1000)) kbit/s"
                            : wanted == next ? "stepping down before a stall"
                            : ceiling.screen ? "the screen is smaller than the pictures above" : "this box decodes the pictures above too slowly"
                        rung = next
                        tried = 1
                        choose(working[rung], reason)
                        cursor.resume(at: segment.sequence)
                        switched = true
                        break
                    }
                }
                for cue in segment.cues where cues.isNew(cue) { report(.cue(cue)) }
                // EXT-X-GAP: another variant's segment stands in, else nothing is fetched and the
                // next segment keeps its own sequence and time.
                var (segment, variant) = (segment, current)
                if segment.gap {
                    guard let standIn = await standIns.standIn(for: segment, playing: current) else {
                        report(.segmentGap(sequence: segment.sequence, duration: segment.duration))
                        continue
                    }
                    report(.gapFilled(sequence: segment.sequence, variant: standIn.variant))
                    (segment, variant) = standIn
                }
                if let key = segment.key, !key.isPlayable {
                    let format = key.keyFormat.map { " KEYFORMAT=\"\($0)\"" } ?? ""
                    report(.segmentFailed(sequence: segment.sequence, failure: PlaybackFailure(.unsupported(.encryption), "encrypted with METHOD=\(key.method.name)\(format), which this client cannot decrypt")))
                    continue
                }
                while let hasRoom = room.withLock({ $0 }), !hasRoom() {
                    guard await Self.pause(0.05) else { return }
                }
                let outcome = await fetch(segment, variant: variant, bandwidth: variants.isEmpty ? nil : variants[variant].bandwidth,
                                          estimator: &estimator)
                // A stand-in's outcome says nothing of the playing variant.
                if variant != current {
                    if case .failed(let failure, _) = outcome { report(.segmentFailed(sequence: segment.sequence, failure: failure)) }
                    continue
                }
                guard case .failed(let failure, let delivered) = outcome else {
                    // A whole segment: this variant works (its backups may be tried again).
                    if case .whole = outcome, !variants.isEmpty {
                        working[rung] = current
                        tried = 1
                    }
                    continue
                }
                // A segment failing on a variant with a backup: the backup takes over at once, from
                // this segment again when none of it was handed on (else the next one).
                if let backup = ladder.backup(after: current, tried: tried) {
                    tried += 1
                    report(.backupChosen(index: backup, failedURL: segment.uri.absoluteString, failure: failure))
                    choose(backup, "a backup of the variant that failed")
                    cursor.resume(at: delivered ? segment.sequence + 1 : segment.sequence)
                    switched = true
                    break
                }
                report(.segmentFailed(sequence: segment.sequence, failure: failure))
            }
            if switched { continue }  // the new variant's playlist, at once
            if cursor.ended && pending == nil && cursor.nextSequence.map({ $0 > (playlist.segments.last?.sequence ?? 0) }) == true {
                return
            }
            guard await Self.pause(cursor.nextReload(loadStarted: loadStarted) - Self.now()) else { return }
        }
    }
}
