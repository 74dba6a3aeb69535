import Foundation
import ZapperCore
import ZapperHLS
import ZapperMedia

/// A channel's sound when its master playlist carries it apart from the
/// picture: an EXT-X-MEDIA audio rendition with a media playlist of its own.
/// Its own live session fetches the rendition's segments, and a thread of its
/// own demuxes and decodes them and puts the sound on the channel's timeline
/// at the place the picture's decode thread gave that discontinuity (RFC 8216
/// keeps a rendition's timestamps in line with the variants'). While the
/// channel is a warm neighbour it keeps only its newest segments and decodes
/// nothing.
final class AudioRenditionFeed: SegmentPipeline, @unchecked Sendable {
    let url: URL
    private let session: HLSLiveSession
    private let channel: Int
    private let tracks: ChannelTracks
    private let parametersCache: ParametersCache
    private let samples: SampleQueue
    /// The sound queue's serial this feed pushes with: once the queue moves on, the feed stops.
    private let serial: Int
    private let failed: @Sendable (PlaybackFailure) -> Void
    private let inbox: SegmentInbox
    /// Segments a warm neighbour keeps: the picture starts at the segment before its newest
    /// (`WarmHeadPlan.headSegment`), and its playlist may be a reload behind this one's.
    static let warmSegments = 3

    /// - Parameters:
    ///   - startSequence: the media sequence to start at (a language chosen while
    ///     the picture plays); nil: HOLD-BACK behind the live edge, as the picture starts.
    ///   - samples: the channel's sound queue, pushed with `serial` (waiting while it is full).
    ///   - failed: a playlist or segment of the rendition failed (the picture plays on).
    init(url: URL, fetcher: HTTPFetcher, channel: Int, startSequence: Int64?, tracks: ChannelTracks,
         parametersCache: ParametersCache, isWarm: @escaping @Sendable () -> Bool,
         samples: SampleQueue, serial: Int, failed: @escaping @Sendable (PlaybackFailure) -> Void) {
        self.url = url
        self.channel = channel
        self.tracks = tracks
        self.parametersCache = parametersCache
        self.samples = samples
        self.serial = serial
        self.failed = failed
        let inbox = SegmentInbox(warmKeeps: Self.warmSegments, isWarm: isWarm)
        self.inbox = inbox
        // One segment ahead of where the picture starts: sound older than the picture is dropped,
        // sound that starts later would leave the picture silent (for a whole loop across a discontinuity).
        session = HLSLiveSession(url: url, fetcher: fetcher, bufferedSeconds: { 10 }, startSequence: startSequence,
                                 leadSegments: 1, masterVariables: tracks.masterVariables) { event in
            if let failure = event.failure { failed(failure) }
        }
        session.waitsForRoom { inbox.hasRoom }
    }

    func start() {
        startPipeline(session, threadName: "zapper-audio-\(channel)")
    }

    /// Cancels fetching and wakes the decode thread; returns at once.
    func stop() {
        inbox.stop()
        session.cancel()
    }

    /// The channel was promoted: decoding starts.
    func wake() { inbox.wake() }

    /// Paused or behind live: its segments go on coming while its decoder waits, up to `budget`.
    func keepBehindLive(_ budget: TimeshiftBudget) { inbox.keepBehindLive(budget) }

    private var isStopped: Bool { inbox.isStopped }

    func receive(_ delivery: HLSSegmentDelivery) {
        inbox.receive(delivery)
    }

    /// Where discontinuity `sequence` sits on the timeline, once the picture has
    /// reached it; nil when the picture is already past it (or the feed stopped).
    private func offset(discontinuity sequence: Int64) -> Double? {
        while !isStopped {
            switch tracks.place(discontinuity: sequence) {
            case .offset(let offset): return offset
            case .passed: return nil
            case .notYet: Thread.sleep(forTimeInterval: 0.02)
            }
        }
        return nil
    }

    func decodeLoop() {
        var decoder: Decoder?
        let resampler = AudioResampler(outputRate: samples.sampleRate)
        var timeline = SplicedTimeline()
        let cacheKey = url.absoluteString
        while let delivery = inbox.next()?.delivery {
            guard let offset = offset(discontinuity: delivery.discontinuitySequence) else {
                delivery.bytes.cancel()
                if isStopped { return }
                continue
            }
            if timeline.follow(discontinuity: delivery.discontinuitySequence, offset: offset) {
                // New timestamps: what the decoder holds from before belongs to the old ones.
                decoder?.flush()
            }
            do {
                let demuxer = try Demuxer(queue: delivery.bytes, container: delivery.container,
                                          cached: parametersCache.get(channel, variant: 0, rendition: cacheKey))
                if demuxer.probed { parametersCache.set(demuxer.parameters, for: channel, variant: 0, rendition: cacheKey) }
                guard let stream = demuxer.selectedAudio else {
                    failed(PlaybackFailure(.invalid, "\(url.absoluteString): segment \(delivery.sequence) has no audio stream"))
                    continue
                }
                let base = demuxer.timeBase(stream: stream)
                while let packet = try demuxer.readPacket() {
                    guard packet.streamIndex == stream else { continue }
                    if decoder == nil { decoder = try Decoder(demuxer.parameters[stream]) }
                    try decoder!.send(packet)
                    while let frame = try decoder!.receive() {
                        let seconds = frame.pts.flatMap { StreamTime.seconds($0, numerator: base.numerator, denominator: base.denominator) }
                        let duration = Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
                        guard let time = timeline.place(stream: 0, seconds: seconds, duration: duration) else { continue }
                        guard samples.push(try resampler.convert(frame), at: time, serial: serial) else { return }
                    }
                }
            } catch {
                if delivery.bytes.isCancelled || isStopped { return }
                failed(PlaybackFailure(error).at("audio segment \(delivery.sequence)"))
            }
        }
    }
}
