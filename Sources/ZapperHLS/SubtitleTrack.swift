import Foundation
import Synchronization
import ZapperCore

/// Follows one live WebVTT subtitle media playlist (an EXT-X-MEDIA
/// TYPE=SUBTITLES rendition's URI): reloads it at the RFC's pace, fetches each
/// new segment once, skips expired ones, parses the cues and hands them to
/// `cues`, until `stop()`. Runs as an async task whose reads are
/// AsyncHTTPClient's (SwiftNIO event-loop threads), like `HLSLiveSession`;
/// no cooperative thread ever blocks.
public final class SubtitleTrack: Sendable {
    public let url: URL
    private let fetcher: HTTPFetcher
    private let startSequence: Int64?
    /// The master playlist's variables (EXT-X-DEFINE IMPORT).
    private let masterVariables: HLSVariables?
    private let deliver: @Sendable ([SubtitleCue]) -> Void
    private let report: @Sendable (HLSEvent) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// - Parameters:
    ///   - url: the subtitle media playlist.
    ///   - startSequence: the media sequence to start at (the video's first
    ///     segment); nil: HOLD-BACK behind the live edge, as the video does.
    ///   - cues: the cues of each fetched segment, in segment order (a cue
    ///     repeated in the next segment, as segmenters do for cues that span
    ///     a boundary, is delivered once). Called on the track's task.
    ///   - masterVariables: the variables of the master playlist that lists the track, which
    ///     EXT-X-DEFINE IMPORT takes (nil: none).
    ///   - events: playlist and segment failures, expiries, fetches (variant 0).
    public init(url: URL, fetcher: HTTPFetcher = .shared, startSequence: Int64? = nil, masterVariables: HLSVariables? = nil,
                cues: @escaping @Sendable ([SubtitleCue]) -> Void,
                events: @escaping @Sendable (HLSEvent) -> Void = { _ in }) {
        self.url = url
        self.fetcher = fetcher
        self.startSequence = startSequence
        self.masterVariables = masterVariables
        deliver = cues
        report = events
    }

    public func start() {
        let started = Task { await self.run() }
        task.withLock { $0 = started }
    }

    /// Cancels the task: no cue is delivered after this returns but for one
    /// batch already being handed over.
    public func stop() {
        task.withLock { $0?.cancel() }
    }

    /// Waits until the task has ended (after `stop()`, or at an ENDLIST).
    public func finished() async {
        await task.withLock { $0 }?.value
    }


    private func run() async {
        var cursor = LiveSegmentCursor()
        var failures = 0
        var recent = RecentCues()
        var positioned = startSequence == nil
        while !Task.isCancelled {
            let loadStarted = HLSLiveSession.now()
            let playlist: HLSMediaPlaylist
            do {
                let fetched = try await fetcher.document(url)
                guard case .media(let media) = try HLSParser.parse(fetched.text, url: fetched.url, masterVariables: masterVariables) else {
                    throw HTTPFetcher.Failure(url: url.absoluteString, kind: .invalid, reason: "a master playlist where a subtitle playlist was expected")
                }
                playlist = media
                if failures > 0 { report(.playlistRecovered(url: url.absoluteString)) }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                failures += 1
                report(.playlistFailed(url: url.absoluteString, failure: HTTPFailureKind.failure(error, url: url.absoluteString), attempt: failures))
                guard await HLSLiveSession.pause(HLSLiveSession.backoff(failures)) else { return }
                continue
            }
            if !positioned, let startSequence {
                cursor.resume(at: startSequence)
                positioned = true
            }
            let update = cursor.update(playlist, at: loadStarted)
            if let expired = update.expired { report(.segmentsExpired(expired)) }
            if update.restarted { report(.restarted) }
            for segment in update.segments {
                if Task.isCancelled { return }
                if segment.gap {
                    report(.segmentGap(sequence: segment.sequence, duration: segment.duration))
                    continue
                }
                let cues = await fetch(segment).filter { recent.isNew($0) }
                if Task.isCancelled { return }
                if !cues.isEmpty { deliver(cues) }
            }
            if cursor.ended { return }
            guard await HLSLiveSession.pause(cursor.nextReload(loadStarted: loadStarted) - HLSLiveSession.now()) else { return }
        }
    }

    /// One segment's cues; a failure is reported and yields none.
    private func fetch(_ segment: HLSSegment) async -> [SubtitleCue] {
        let started = HLSLiveSession.now()
        do {
            let text = try await fetcher.text(segment.uri, limit: 1 << 20)
            report(.segmentFetched(sequence: segment.sequence, bytes: text.utf8.count,
                                   seconds: HLSLiveSession.now() - started, variant: 0))
            let document = try WebVTTParser.parse(text)
            for problem in document.problems {
                report(.segmentFailed(sequence: segment.sequence, failure: PlaybackFailure(.invalid, "a cue skipped: \(problem)")))
            }
            return document.cues.map {
                SubtitleCue(start: $0.start, end: $0.end, text: $0.text,
                            sequence: segment.sequence, discontinuitySequence: segment.discontinuitySequence)
            }
        } catch {
            if !Task.isCancelled { report(.segmentFailed(sequence: segment.sequence, failure: HTTPFailureKind.failure(error, url: segment.uri.absoluteString))) }
            return []
        }
    }
}

/// The last cues delivered, to drop the copy a segmenter repeats in the
/// next segment.
struct RecentCues {
    private struct Key: Hashable {
        var start: Double
        var end: Double
        var text: String
        var discontinuity: Int64
    }

    private var keys: [Key] = []
    let capacity = 64

    mutating func isNew(_ cue: SubtitleCue) -> Bool {
        let key = Key(start: cue.start, end: cue.end, text: cue.text, discontinuity: cue.discontinuitySequence)
        if keys.contains(key) { return false }
        keys.append(key)
        if keys.count > capacity { keys.removeFirst(keys.count - capacity) }
        return true
    }
}
