import Foundation
import OriginKit
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia

/// RFC 8216bis shapes against the origin's `/shapes/` on loopback: EXT-X-GAP
/// segments are never requested, EXT-X-DEFINE'd playlists play their segments.
extension HLSLiveSessionTests {
    func shapesURL(_ origin: OriginProcess, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(origin.port)/shapes/\(path)")!
    }

    func failures(_ recorder: Recorder) -> [String] {
        recorder.events.withLock { $0 }.compactMap { event in
            switch event {
            case .segmentFailed(let sequence, let failure): "segment \(sequence): \(failure)"
            case .playlistFailed(_, let failure, _): "playlist: \(failure)"
            default: nil
            }
        }
    }

    /// Every fourth segment of `/shapes/gap/` is a gap whose URI answers 404: none is
    /// requested (a request would fail the segment), and the timeline runs on over
    /// them, every sequence number accounted for.
    @Test func gapSegmentsAreNeverFetched() async throws {
        let origin = try OriginProcess.shared.get()
        let gap = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/gap/240p/\(Int64(Date().timeIntervalSince1970 / 2) / 4 * 4 - 3).ts")
        #expect(gap.status == 404)  // a gap's URI is not there to fetch
        let (session, recorder, consumer) = play(shapesURL(origin, "gap/master.m3u8"))
        defer { session.cancel(); consumer.cancel() }
        func gaps() -> [Int64] {
            recorder.events.withLock { $0 }.compactMap { if case .segmentGap(let sequence, _) = $0 { sequence } else { nil } }
        }
        try await recorder.waitFor("two gaps and four segments", seconds: 60) {
            gaps().count >= 2 && recorder.deliveries.withLock { $0.count } >= 4
        }
        let delivered = recorder.deliveries.withLock { $0 }.map(\.sequence)
        #expect(failures(recorder).isEmpty, "\(failures(recorder))")
        #expect(gaps().allSatisfy(OriginRouter.isGap), "\(gaps())")
        #expect(!delivered.contains(where: OriginRouter.isGap), "\(delivered)")
        #expect(delivered == delivered.sorted())
        // From the first segment on, each sequence number was delivered or passed as a gap.
        let seen = Set(delivered + gaps())
        let first = try #require(delivered.first), last = try #require(delivered.last)
        #expect((first...last).allSatisfy(seen.contains), "delivered \(delivered), gaps \(gaps())")
        // A gap keeps its duration: 2 s, like the segments around it.
        let durations = recorder.events.withLock { $0 }.compactMap { if case .segmentGap(_, let duration) = $0 { duration } else { nil } }
        #expect(durations.allSatisfy { $0 > 1.5 && $0 < 2.5 }, "\(durations)")
    }

    /// `/shapes/gap/copies.m3u8` lists its variant twice, each copy with gaps the other has
    /// whole: every gap of the copy playing is filled from the other copy's segment of the
    /// same sequence number, and no second of the stream goes missing.
    @Test func aGapIsFilledFromARedundantCopy() async throws {
        let origin = try OriginProcess.shared.get()
        let (session, recorder, consumer) = play(shapesURL(origin, "gap/copies.m3u8"))
        defer { session.cancel(); consumer.cancel() }
        func filled() -> [(sequence: Int64, variant: Int)] {
            recorder.events.withLock { $0 }.compactMap { if case .gapFilled(let sequence, let variant) = $0 { (sequence, variant) } else { nil } }
        }
        try await recorder.waitFor("two gaps filled and six segments", seconds: 60) {
            filled().count >= 2 && recorder.deliveries.withLock { $0.count } >= 6
        }
        let deliveries = recorder.deliveries.withLock { $0 }
        let gaps = recorder.events.withLock { $0 }.compactMap { if case .segmentGap(let sequence, _) = $0 { sequence } else { nil } }
        #expect(failures(recorder).isEmpty, "\(failures(recorder))")
        #expect(gaps.isEmpty, "gaps not filled: \(gaps)")
        // Copy a (variant 0) plays; its gaps come from copy b (variant 1), which has them whole.
        #expect(filled().allSatisfy { OriginRouter.isGap($0.sequence, copy: "a") && !OriginRouter.isGap($0.sequence, copy: "b") && $0.variant == 1 },
                "\(filled())")
        for delivery in deliveries {
            #expect(delivery.variant == (OriginRouter.isGap(delivery.sequence, copy: "a") ? 1 : 0), "segment \(delivery.sequence) from \(delivery.variant)")
        }
        let sequences = deliveries.map(\.sequence)
        let first = try #require(sequences.first), last = try #require(sequences.last)
        #expect(sequences == Array(first...last), "every segment delivered, in order: \(sequences)")
    }

    /// `/shapes/define/login.m3u8` redirects to the master with a token in its query:
    /// QUERYPARAM reads it from the URL that answered, the media playlist IMPORTs the
    /// master's `cdn`, and every segment URI carries the token (403 without it).
    @Test func aDefinedChannelPlaysItsSegments() async throws {
        let origin = try OriginProcess.shared.get()
        let sequence = Int64(Date().timeIntervalSince1970 / 2) - 2
        #expect(try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/define/240p/\(sequence).ts").status == 403)
        #expect(try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/define/240p/index.m3u8").status == 403)
        let (session, recorder, consumer) = play(shapesURL(origin, "define/login.m3u8"))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("three segments", seconds: 60) { recorder.deliveries.withLock { $0.count } >= 3 }
        #expect(failures(recorder).isEmpty, "\(failures(recorder))")
        let master = recorder.events.withLock { $0 }.compactMap { if case .masterLoaded(let master) = $0 { master } else { nil } }.first
        #expect(master?.variables["token"] == OriginRouter.shapesToken)
        #expect(master?.variants.first?.uri.absoluteString
            == "http://127.0.0.1:\(origin.port)/shapes/define/240p/index.m3u8?token=\(OriginRouter.shapesToken)")
        // The segments are the channel's 240p pictures.
        let first = try #require(recorder.deliveries.withLock { $0.first })
        let demuxer = try Demuxer(queue: first.bytes)
        let video = try #require(demuxer.firstStream(.video))
        #expect(demuxer.parameters[video].height == 240)
    }

    /// Without the token the master's QUERYPARAM has nothing to read: the playlist fails,
    /// its line named; a media playlist loaded on its own has no master to IMPORT from.
    @Test func aDefinedChannelWithoutItsTokenFailsAtTheLine() async throws {
        let origin = try OriginProcess.shared.get()
        let (session, recorder, consumer) = play(shapesURL(origin, "define/master.m3u8"))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("the master to fail") { !failures(recorder).isEmpty }
        let reason = try #require(failures(recorder).first)
        #expect(reason.contains("/shapes/define/master.m3u8:4: EXT-X-DEFINE QUERYPARAM=\"token\""), "\(reason)")
        #expect(recorder.deliveries.withLock { $0.isEmpty })

        let alone = shapesURL(origin, "define/240p/index.m3u8?token=\(OriginRouter.shapesToken)")
        let (media, mediaRecorder, mediaConsumer) = play(alone)
        defer { media.cancel(); mediaConsumer.cancel() }
        try await mediaRecorder.waitFor("the media playlist to fail") { !failures(mediaRecorder).isEmpty }
        let mediaReason = try #require(failures(mediaRecorder).first)
        #expect(mediaReason.contains("index.m3u8?token=\(OriginRouter.shapesToken):2: EXT-X-DEFINE IMPORT=\"cdn\" in a playlist not loaded from a master"),
                "\(mediaReason)")
    }

    /// A subtitle rendition is followed by a track of its own, given the variables of the
    /// master that listed it (as the player passes them): its playlist IMPORTs from them.
    @Test func aRenditionImportsFromTheMasterThatListedIt() async throws {
        let origin = try OriginProcess.shared.get()
        let fetcher = HTTPFetcher()
        let (session, recorder, consumer) = play(shapesURL(origin, "define/login.m3u8"), fetcher: fetcher)
        try await recorder.waitFor("the master") { recorder.count { if case .masterLoaded = $0 { true } else { false } } > 0 }
        let master = recorder.events.withLock { $0 }.compactMap { if case .masterLoaded(let master) = $0 { master } else { nil } }.first
        let uri = try #require(master?.renditions(.subtitles, group: "subs").first?.uri)
        let cues = Mutex<[SubtitleCue]>([])
        let events = Mutex<[HLSEvent]>([])
        let track = SubtitleTrack(url: uri, fetcher: fetcher, masterVariables: master?.variables, cues: { new in cues.withLock { $0 += new } },
                                  events: { event in events.withLock { $0.append(event) } })
        track.start()
        try await recorder.waitFor("a cue", seconds: 30) { !cues.withLock { $0.isEmpty } }
        track.stop()
        await track.finished()
        session.cancel()
        consumer.cancel()
        await fetcher.shutdown()
        #expect(cues.withLock { $0 }.first?.text.contains("cue") == true)
        #expect(!events.withLock { $0 }.contains { if case .playlistFailed = $0 { true } else { false } })
    }
}
