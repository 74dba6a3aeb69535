import AsyncHTTPClient
import Foundation
import ZapperCore

extension HLSLiveSession {
    /// Fetches one segment, handing it on as soon as its head arrives. An
    /// AES-128 segment is decrypted as its body streams in (its key fetched
    /// once per key URI); only the last block waits for the body's end. A
    /// fragmented MP4 segment gets its initialization section (fetched once
    /// per URI and range) in front of its bytes.
    /// A segment bigger than its cap (`SegmentLimits`, from its duration and the variant's
    /// `bandwidth`), or not whole by its deadline, fails: what arrived is still decoded.
    enum FetchOutcome {
        case whole, cancelled
        /// `delivered`: some of it was handed on (and is decoded).
        case failed(PlaybackFailure, delivered: Bool)
    }

    func fetch(_ segment: HLSSegment, variant: Int, bandwidth: Int?, estimator: inout BandwidthEstimator) async -> FetchOutcome {
        let queue = ByteQueue()
        let started = Self.now()
        let cap = SegmentLimits.byteCap(duration: segment.duration, bandwidth: bandwidth)
        let deadline = started + SegmentLimits.deadline(duration: segment.duration)
        var delivered = false
        var bytes = 0
        var decryptor: SegmentDecryptor?
        do {
            if let section = segment.initSection {
                queue.append(Data(try await initSections.bytes(section)))
            }
            if let key = segment.key, let keyURL = key.uri {
                decryptor = try SegmentDecryptor(key: try await keys.key(keyURL), iv: key.initializationVector(sequence: segment.sequence))
            }
            let response = try await fetcher.start(segment.uri, byteRange: segment.byteRange)
            continuation.yield(HLSSegmentDelivery(sequence: segment.sequence, discontinuitySequence: segment.discontinuitySequence,
                                                  duration: segment.duration, programDate: segment.programDate,
                                                  variant: variant, container: segment.container, bytes: queue))
            delivered = true
            // A server that ignored Range sends the whole resource: only the range is the segment.
            var cut = response.status == .ok ? segment.byteRange.map(ByteRangeCut.init) : nil
            try await receive(response.body, of: segment, into: queue, cap: cap, started: started, deadline: deadline,
                              cut: &cut, decryptor: &decryptor, bytes: &bytes)
            if let cut, !cut.isComplete, let range = segment.byteRange {
                throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .truncated,
                                          reason: "\(bytes) bytes, shorter than the range \(range.length)@\(range.offset)")
            }
            if let last = try decryptor?.finish() { queue.append(last) }
            queue.finish()
            let seconds = Self.now() - started
            estimator.add(bytes: bytes, seconds: seconds)
            if isWarm() { WarmTraffic.add(bytes) } else { warmMemory.measured(bytes: bytes, seconds: seconds) }
            report(.segmentFetched(sequence: segment.sequence, bytes: bytes, seconds: seconds, variant: variant))
            return .whole
        } catch {
            if Task.isCancelled {
                queue.cancel()
                return .cancelled
            }
            // What arrived is still demuxed; the decoder resyncs at the next keyframe.
            queue.finish()
            if delivered { estimator.add(bytes: max(bytes, 1), seconds: Self.now() - started) }
            let url = segment.uri.absoluteString
            let failure = error is SegmentDecryptor.Failure ? PlaybackFailure(.invalid, "\(url): \(error)") : HTTPFailureKind.failure(error, url: url)
            return .failed(failure, delivered: delivered)
        }
    }

    /// Streams a segment's body into `queue` as it comes (only the range `cut` keeps, from a
    /// server that ignored Range; decrypted by `decryptor`), counting `bytes` read; throws past
    /// `cap` bytes or after `deadline`.
    func receive(_ body: HTTPClientResponse.Body, of segment: HLSSegment, into queue: ByteQueue, cap: Int, started: Double,
                 deadline: Double, cut: inout ByteRangeCut?, decryptor: inout SegmentDecryptor?, bytes: inout Int) async throws {
        for try await chunk in body {
            bytes += chunk.readableBytes
            if bytes > cap {
                throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .tooLarge,
                                          reason: "more than \(cap >> 20) MB, the most a \(segment.duration) s segment may have")
            }
            if Self.now() > deadline {
                throw HTTPFetcher.Failure(url: segment.uri.absoluteString, kind: .timeout,
                                          reason: "\(bytes) bytes after \(Int(deadline - started)) s, and not whole")
            }
            var view = chunk.readableBytesView[...]
            if cut != nil {
                let kept = cut!.keep(count: view.count)
                view = view.dropFirst(kept.lowerBound).prefix(kept.count)
            }
            if let plain = try decryptor?.update(view) {
                queue.append(plain)
            } else {
                queue.append(Data(view))
            }
            if cut?.isComplete == true { break }
        }
    }
}
