import AsyncHTTPClient
import Foundation
import ZapperCore

/// A warm neighbour keeping segment heads (`WarmHeadPlan`): the first key frame of each new
/// segment but the newest (`WarmHeadPlan.headSegment`) of a variant the line carries, fetched
/// with Range requests and handed on unfinished; at the promotion, the rest of the last one
/// follows on the same bytes, so the first picture is full quality and the motion goes on from it.
extension HLSLiveSession {
    /// A rung of the ladder a warm neighbour may keep heads of.
    struct WarmRung {
        let rung: Int
        let variant: Int
        let url: URL
        let bandwidth: Int?
        /// What its heads are remembered by across channels (`kind(height:bandwidth:)`).
        let kind: Int
    }

    /// The ladder's rungs, lowest first, up to the highest below `ceiling`'s pixels (a lone media playlist at `lone`: one).
    static func warmRungs(variants: [HLSVariant], ladder: VariantLadder, lone: URL, ceiling: Int? = nil) -> [WarmRung] {
        guard !variants.isEmpty else { return [WarmRung(rung: 0, variant: 0, url: lone, bandwidth: nil, kind: 0)] }
        // Heads of pictures this box decodes too slowly are not worth their bytes.
        let highest = ceiling.map { ladder.rank(fewerPixelsThan: $0) } ?? ladder.bandwidths.count - 1
        return ladder.bandwidths.indices.sorted { ladder.bandwidths[$0] < ladder.bandwidths[$1] }.prefix(highest + 1).map { rung in
            let variant = variants[ladder.rungs[rung][0]]
            return WarmRung(rung: rung, variant: ladder.rungs[rung][0], url: variant.uri, bandwidth: ladder.bandwidths[rung],
                            kind: kind(height: variant.resolution?.height, bandwidth: ladder.bandwidths[rung]))
        }
    }

    /// What a variant's heads are remembered by across channels: its picture height and its
    /// BANDWIDTH to within a factor of √2 (a 1080p still picture at 216 kbit/s is not a 1080p
    /// programme at 5 Mbit/s); without a RESOLUTION, its BANDWIDTH. Negative: never a BANDWIDTH.
    static func kind(height: Int?, bandwidth: Int) -> Int {
        guard let height else { return bandwidth }
        let band = min(max(Int((log2(Double(max(bandwidth, 1))) * 2).rounded(.down)), 0), 63)
        return -(min(max(height, 0), 1 << 20) * 64 + band) - 1
    }

    /// The head of a segment, handed on; the rest follows at the promotion unless it was all of it.
    struct KeptHead {
        let segment: HLSSegment
        let rung: WarmRung
        let queue: ByteQueue
        let bytes: Int
        let whole: Bool
    }

    enum WarmEnd {
        /// Promoted, the kept head's segment fetched on: play on from segment `next` of `rung`.
        case promoted(next: Int64, rung: WarmRung)
        /// Promoted before a head was kept: a cold start.
        case cold
        /// Heads cannot be kept of this stream: it is followed as before (the lowest variant, whole segments).
        case fallBack
        case ended
    }

    private enum HeadOutcome {
        case kept(KeptHead)
        case failed
        case refused(String)
        case cancelled
    }

    /// Keeps heads while the channel is warm (`rungs` lowest first), then hands over.
    func keepHeads(rungs: [WarmRung], imports: HLSVariables?, estimator: inout BandwidthEstimator) async -> WarmEnd {
        var plan = WarmHeadPlan(bandwidths: rungs.map { $0.bandwidth ?? 0 }, keys: rungs.map(\.kind), estimate: warmMemory.estimate,
                                heads: warmMemory.heads, now: Self.now())
        var cursor = LiveSegmentCursor()
        var following: Int?
        var kept: KeptHead?
        var failures = 0
        var loaded = false
        var told: Int?
        // The last segment whose head was asked for of the variant followed.
        var tried: Int64?
        while isWarm() {
            guard !Task.isCancelled else { return .ended }
            let rung = rungs[plan.rank]
            if following != plan.rank {
                // Another variant: its playlist from the start (media sequences line up, the cursor need not).
                cursor = LiveSegmentCursor()
                following = plan.rank
                tried = nil
            }
            let loadStarted = Self.now()
            let playlist: HLSMediaPlaylist
            do {
                let fetched = try await fetcher.document(rung.url)
                WarmTraffic.add(fetched.text.utf8.count)
                plan.spent(fetched.text.utf8.count, at: Self.now())
                guard case .media(let media) = try HLSParser.parse(fetched.text, url: fetched.url, masterVariables: imports) else {
                    return fallBack("\(rung.url.absoluteString) is not a media playlist")
                }
                playlist = media
                loaded = true
                failures = 0
            } catch {
                if Task.isCancelled { return .ended }
                if firstAnswerRemembered, !loaded {
                    staleMaster.withLock { $0 = true }
                    return .ended
                }
                failures += 1
                // The whole-segment way reports and rides out a failing playlist, backups and all.
                if failures >= 3 { return fallBack("its playlist failed \(failures) times") }
                await promotion.wait(seconds: Self.backoff(failures))
                continue
            }
            plan.fit(segmentDuration: Double(playlist.targetDuration))
            guard following == plan.rank else { continue }
            if told != plan.rank {
                told = plan.rank
                report(.warmHeads(index: rung.variant, reason: "\(rung.bandwidth.map { "\($0 / 1000) kbit/s" } ?? "its only variant"), within \(WarmHeadPlan.budget / 1000) kbit/s"))
            }
            // A playlist that started over numbers its segments afresh.
            if cursor.update(playlist, at: loadStarted).restarted { tried = nil }
            if let segment = WarmHeadPlan.headSegment(of: playlist.segments), segment.sequence > tried ?? .min,
               plan.mayFetch(at: Self.now()) {
                if segment.initSection != nil || segment.key != nil || segment.byteRange != nil {
                    return fallBack("its segments are \(segment.initSection != nil ? "fragmented MP4" : segment.key != nil ? "encrypted" : "byte ranges")")
                }
                tried = segment.sequence
                switch await fetchHead(of: segment, rung: rung, plan: &plan) {
                case .kept(let head):
                    // The head kept before ends where it is: a decoder that took it at a promotion
                    // made while this one came moves on to this one, not waiting for a rest never fetched.
                    kept?.queue.finish()
                    kept = head
                case .failed: break  // the head kept before (if any) stays
                case .refused(let reason): return fallBack(reason)
                case .cancelled: return .ended
                }
                warmMemory.remember(heads: plan.heads)
            }
            guard isWarm() else { break }
            await promotion.wait(seconds: cursor.nextReload(loadStarted: loadStarted) - Self.now())
        }
        guard !Task.isCancelled else { return .ended }
        guard let kept, !kept.queue.isCancelled else { return .cold }
        await fetchRest(of: kept, estimator: &estimator)
        return .promoted(next: kept.segment.sequence + 1, rung: kept.rung)
    }

    private func fallBack(_ reason: String) -> WarmEnd {
        report(.warmHeads(index: nil, reason: reason))
        return .fallBack
    }

    /// Fetches `segment`'s head: Range requests from its start until its first key frame is
    /// whole (the first request sized by `plan`), handed on unfinished.
    private func fetchHead(of segment: HLSSegment, rung: WarmRung, plan: inout WarmHeadPlan) async -> HeadOutcome {
        let queue = ByteQueue()
        var scan = TSKeyFrameWindow(limit: WarmHeadPlan.maxHeadBytes)
        var bytes = 0
        var request = plan.firstRequest
        let deadline = Self.now() + SegmentLimits.deadline(duration: segment.duration)
        var gaveUp = false
        do {
            while true {
                let before = bytes
                let response = try await fetcher.start(segment.uri, byteRange: HLSByteRange(length: request, offset: bytes))
                guard response.status == .partialContent else {
                    return .refused("\(segment.uri.absoluteString) answered a Range request with the whole segment")
                }
                let total = Self.totalLength(response.headers.first(name: "Content-Range"))
                for try await chunk in response.body {
                    bytes += chunk.readableBytes
                    WarmTraffic.add(chunk.readableBytes)
                    guard bytes <= WarmHeadPlan.maxHeadBytes else {
                        gaveUp = true
                        throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .tooLarge, reason: "no key frame whole in \(bytes) bytes")
                    }
                    guard Self.now() <= deadline else {
                        throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .timeout, reason: "\(bytes) bytes of its head, and not whole")
                    }
                    scan.append(chunk.readableBytesView)
                    queue.append(Data(chunk.readableBytesView))
                }
                guard bytes > before else {
                    throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .truncated, reason: "an empty answer to a Range request")
                }
                let whole = total.map { bytes >= $0 } ?? false
                if whole || scan.picturesAfterKeyFrame > 0 {
                    if whole { queue.finish() }
                    plan.fetchedHead(bytes, needed: scan.firstKeyFrameEnd ?? bytes, segmentDuration: segment.duration, at: Self.now())
                    var delivery = HLSSegmentDelivery(sequence: segment.sequence, discontinuitySequence: segment.discontinuitySequence,
                                                      duration: segment.duration, programDate: segment.programDate,
                                                      variant: rung.variant, container: segment.container, bytes: queue)
                    delivery.keptHead = !whole
                    continuation.yield(delivery)
                    return .kept(KeptHead(segment: segment, rung: rung, queue: queue, bytes: bytes, whole: whole))
                }
                request = max(request, 32 << 10)
            }
        } catch {
            queue.cancel()
            if Task.isCancelled { return .cancelled }
            // Any failure costs the budget what it fetched; only a head given up for its size
            // teaches the plan (a lower variant next).
            if gaveUp {
                plan.fetchedHead(bytes, needed: nil, segmentDuration: segment.duration, at: Self.now())
            } else {
                plan.spent(bytes, at: Self.now())
            }
            return .failed
        }
    }

    /// The promoted channel's kept head goes on: the rest of its segment, on the same bytes.
    private func fetchRest(of kept: KeptHead, estimator: inout BandwidthEstimator) async {
        guard !kept.whole else { return }
        let segment = kept.segment
        let started = Self.now()
        let cap = SegmentLimits.byteCap(duration: segment.duration, bandwidth: kept.rung.bandwidth)
        let rest = HLSByteRange(length: max(cap - kept.bytes, 1), offset: kept.bytes)
        var bytes = 0
        var plain: SegmentDecryptor?
        do {
            let response = try await fetcher.start(segment.uri, byteRange: rest)
            // A server that no longer honours Range sends it all: what the head had is cut off.
            var cut = response.status == .ok ? ByteRangeCut(rest) : nil
            try await receive(response.body, of: segment, into: kept.queue, cap: cap, started: started,
                              deadline: started + SegmentLimits.deadline(duration: segment.duration),
                              cut: &cut, decryptor: &plain, bytes: &bytes)
            kept.queue.finish()
            let seconds = Self.now() - started
            estimator.add(bytes: bytes, seconds: seconds)
            warmMemory.measured(bytes: bytes, seconds: seconds)
            report(.segmentFetched(sequence: segment.sequence, bytes: kept.bytes + bytes, seconds: seconds, variant: kept.rung.variant))
        } catch {
            // What arrived is still decoded.
            kept.queue.finish()
            guard !Task.isCancelled else { return }
            report(.segmentFailed(sequence: segment.sequence, failure: HTTPFailureKind.failure(error, url: segment.uri.absoluteString)))
        }
    }

    /// The complete length of a `Content-Range: bytes A-B/LENGTH` header; nil when unknown.
    static func totalLength(_ header: String?) -> Int? {
        guard let header, let slash = header.lastIndex(of: "/") else { return nil }
        return Int(header[header.index(after: slash)...].trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 0 ? $0 : nil }
    }
}
