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
    private let sampleRate: Int
    private let tracks: ChannelTracks
    private let parametersCache: ParametersCache
    private let isWarm: @Sendable () -> Bool
    private let sink: @Sendable (_ feed: AudioRenditionFeed, _ samples: [Int16], _ time: Double) -> Bool
    private let failed: @Sendable (PlaybackFailure) -> Void
    private let condition = NSCondition()
    private var deliveries: [HLSSegmentDelivery] = []
    private var current: ByteQueue?
    private var stopped = false
    /// Segments a warm neighbour keeps: the picture may start a segment before the newest sound.
    static let warmSegments = 2

    /// - Parameters:
    ///   - startSequence: the media sequence to start at (a language chosen while
    ///     the picture plays); nil: HOLD-BACK behind the live edge, as the picture starts.
    ///   - sink: takes a block of 48 kHz stereo at a timeline time; false once the
    ///     feed is no longer wanted. Blocks while the sound queue is full.
    ///   - failed: a playlist or segment of the rendition failed (the picture plays on).
    init(url: URL, fetcher: HTTPFetcher, channel: Int, startSequence: Int64?, sampleRate: Int, tracks: ChannelTracks,
         parametersCache: ParametersCache, isWarm: @escaping @Sendable () -> Bool,
         sink: @escaping @Sendable (AudioRenditionFeed, [Int16], Double) -> Bool,
         failed: @escaping @Sendable (PlaybackFailure) -> Void) {
        self.url = url
        self.channel = channel
        self.sampleRate = sampleRate
        self.tracks = tracks
        self.parametersCache = parametersCache
        self.isWarm = isWarm
        self.sink = sink
        self.failed = failed
        // One segment ahead of where the picture starts: sound older than the picture is dropped,
        // sound that starts later would leave the picture silent (for a whole loop across a discontinuity).
        session = HLSLiveSession(url: url, fetcher: fetcher, bufferedSeconds: { 10 }, startSequence: startSequence,
                                 leadSegments: 1, masterVariables: tracks.masterVariables) { event in
            if let failure = event.failure { failed(failure) }
        }
        session.waitsForRoom { [weak self] in self?.hasRoom ?? true }
    }

    /// Whether the session may fetch another segment (a warm feed keeps only its newest).
    private var hasRoom: Bool {
        condition.withLock {
            isWarm() || SegmentLimits.hasRoom(segments: deliveries.count, seconds: deliveries.reduce(0) { $0 + $1.duration },
                                              bytes: deliveries.reduce(0) { $0 + $1.bytes.appendedCount })
        }
    }

    func start() {
        startPipeline(session, threadName: "zapper-audio-\(channel)")
    }

    /// Cancels fetching and wakes the decode thread; returns at once.
    func stop() {
        condition.lock()
        stopped = true
        current?.cancel()
        for waiting in deliveries { waiting.bytes.cancel() }
        deliveries.removeAll()
        condition.broadcast()
        condition.unlock()
        session.cancel()
    }

    var isStopped: Bool { condition.withLock { stopped } }

    func receive(_ delivery: HLSSegmentDelivery) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else {
            delivery.bytes.cancel()
            return
        }
        deliveries.append(delivery)
        if isWarm(), deliveries.count > Self.warmSegments {
            for old in deliveries.dropLast(Self.warmSegments) { old.bytes.cancel() }
            deliveries.removeFirst(deliveries.count - Self.warmSegments)
        }
        condition.broadcast()
    }

    private func nextDelivery() -> HLSSegmentDelivery? {
        condition.lock()
        defer { condition.unlock() }
        while (deliveries.isEmpty || isWarm()) && !stopped {
            condition.wait(until: Date().addingTimeInterval(0.05))  // promotion does not signal this condition
        }
        guard !stopped else { return nil }
        current = deliveries.first?.bytes
        return deliveries.removeFirst()
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
        let resampler = AudioResampler(outputRate: sampleRate)
        var expected: Double?  // where the next frame goes when it has no timestamp
        var lastDiscontinuity: Int64?
        let cacheKey = url.absoluteString
        while let delivery = nextDelivery() {
            guard let offset = offset(discontinuity: delivery.discontinuitySequence) else {
                delivery.bytes.cancel()
                if isStopped { return }
                continue
            }
            if lastDiscontinuity != delivery.discontinuitySequence {
                // New timestamps: what the decoder holds from before belongs to the old ones.
                decoder?.flush()
                expected = nil
                lastDiscontinuity = delivery.discontinuitySequence
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
                        let time = frame.pts.flatMap { StreamTime.seconds($0, numerator: base.numerator, denominator: base.denominator) }
                            .map { $0 + offset } ?? expected
                        guard let time else { continue }
                        expected = time + Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
                        guard sink(self, try resampler.convert(frame), time) else { return }
                    }
                }
            } catch {
                if delivery.bytes.isCancelled || isStopped { return }
                failed(PlaybackFailure(error).at("audio segment \(delivery.sequence)"))
            }
        }
    }
}
