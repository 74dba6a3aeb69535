import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// A live playlist as a server would list it at a moment: `window` segments
/// of `duration` seconds ending at the newest complete one.
func livePlaylist(newest: Int64, window: Int = 6, duration: Double = 2, target: Int = 2,
                  holdBack: Double? = nil, start: HLSStartPoint? = nil) -> HLSMediaPlaylist {
    var playlist = HLSMediaPlaylist()
    playlist.targetDuration = target
    playlist.mediaSequence = max(0, newest - Int64(window) + 1)
    playlist.holdBack = holdBack
    playlist.start = start
    playlist.segments = (playlist.mediaSequence...newest).map {
        HLSSegment(sequence: $0, uri: URL(string: "http://o.example/\($0).ts")!, duration: duration)
    }
    return playlist
}

@Suite struct LiveSegmentCursorTests {
    @Test func startsThreeTargetDurationsFromTheEnd() {
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105)) == 103)
        // HOLD-BACK wins over the default; a segment starting exactly HOLD-BACK from the end is allowed.
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105, holdBack: 4)) == 104)
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105, holdBack: 3)) == 104)
        // EXT-X-START wins over both: negative from the end, positive from the start.
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105, start: HLSStartPoint(timeOffset: -4, precise: false))) == 104)
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105, start: HLSStartPoint(timeOffset: 3, precise: false))) == 101)
        // A window shorter than the hold-back starts at its first segment.
        #expect(LiveSegmentCursor.startSequence(livePlaylist(newest: 105, window: 2)) == 104)
    }

    @Test func yieldsNewSegmentsOnceAndReportsExpiredOnes() {
        var cursor = LiveSegmentCursor()
        let first = cursor.update(livePlaylist(newest: 105), at: 0)
        #expect(first.segments.map(\.sequence) == [103, 104, 105])
        let same = cursor.update(livePlaylist(newest: 105), at: 1)
        #expect(same.segments.isEmpty && !cursor.lastReloadChanged)
        let next = cursor.update(livePlaylist(newest: 106), at: 2)
        #expect(next.segments.map(\.sequence) == [106])
        // We fell far behind: 107...110 are gone.
        let late = cursor.update(livePlaylist(newest: 116), at: 22)
        #expect(late.expired == 107...110)
        #expect(late.segments.map(\.sequence) == Array(111...116))
    }

    @Test func reloadTimingFollowsTheRFC() {
        var cursor = LiveSegmentCursor()
        _ = cursor.update(livePlaylist(newest: 105), at: 10)
        #expect(cursor.nextReload(loadStarted: 10) == 12)
        _ = cursor.update(livePlaylist(newest: 105), at: 12)
        #expect(cursor.nextReload(loadStarted: 12) == 13)
        #expect(!cursor.isStalled(at: 15))
        #expect(cursor.isStalled(at: 16.5))
    }

    @Test func aPlaylistThatStartsOverRestartsAtItsLiveEdge() {
        var cursor = LiveSegmentCursor()
        _ = cursor.update(livePlaylist(newest: 500), at: 0)
        let restarted = cursor.update(livePlaylist(newest: 20), at: 2)
        #expect(restarted.restarted)
        #expect(restarted.segments.map(\.sequence) == [18, 19, 20])
    }

    @Test func endedPlaylistIsNotStalled() {
        var cursor = LiveSegmentCursor()
        var playlist = livePlaylist(newest: 10)
        playlist.endList = true
        _ = cursor.update(playlist, at: 0)
        #expect(cursor.ended && !cursor.isStalled(at: 1000))
    }

    /// Whatever the reload timing, every segment from the start on is either
    /// fetched exactly once, in order, or reported expired; nothing is lost.
    @Test func noSegmentIsLostOrRepeated() async {
        await propertyCheck(count: 300, input: Gen.double(in: 0.1...30).array(of: 1...40)) { gaps in
            var cursor = LiveSegmentCursor()
            var now = 1000.0
            var seen: [Int64] = []
            var start: Int64?
            for gap in gaps {
                let newest = Int64(now / 2) - 1
                let update = cursor.update(livePlaylist(newest: newest), at: now)
                if start == nil { start = update.segments.first?.sequence }
                if let expired = update.expired { seen += Array(expired) }
                seen += update.segments.map(\.sequence)
                now += gap
            }
            guard let start else { return }
            #expect(seen == Array(start..<(start + Int64(seen.count))))
        }
    }
}

@Suite struct VariantChooserTests {
    let chooser = VariantChooser(bandwidths: [5_500_000, 700_000, 2_900_000])

    @Test func startsAtTheLowestVariant() {
        #expect(chooser.startIndex == 1)
        #expect(chooser.next(current: 1, estimate: nil, bufferedSeconds: 10) == 1)
    }

    @Test func stepsUpOneVariantAtATimeWhenThereIsRoom() {
        #expect(chooser.next(current: 1, estimate: 50_000_000, bufferedSeconds: 6) == 2)
        #expect(chooser.next(current: 2, estimate: 50_000_000, bufferedSeconds: 6) == 0)
        #expect(chooser.next(current: 0, estimate: 50_000_000, bufferedSeconds: 6) == 0)
        // Not with too little buffered, nor without bandwidth to spare.
        #expect(chooser.next(current: 1, estimate: 50_000_000, bufferedSeconds: 3) == 1)
        #expect(chooser.next(current: 1, estimate: 3_500_000, bufferedSeconds: 6) == 1)
    }

    /// A warm neighbour's cap is a rank in bandwidth order, not a place in the master playlist:
    /// this ladder lists its highest variant first.
    @Test func aCapKeepsTheLowestBandwidthsWhereverTheMasterListsThem() {
        #expect(chooser.capped(0, atRank: 0) == 1)
        #expect(chooser.capped(2, atRank: 0) == 1)
        #expect(chooser.capped(1, atRank: 0) == 1)
        #expect(chooser.capped(0, atRank: 1) == 2)
        #expect(chooser.capped(2, atRank: 1) == 2)
        #expect(chooser.capped(0, atRank: 2) == 0)
        #expect(chooser.capped(0, atRank: 9) == 0)
    }

    @Test func stepsDownBeforeAStall() {
        // Bandwidth collapsed: straight to what fits.
        #expect(chooser.next(current: 0, estimate: 1_000_000, bufferedSeconds: 6) == 1)
        #expect(chooser.next(current: 0, estimate: 4_000_000, bufferedSeconds: 6) == 2)
        // The buffer is running dry: down even if the estimate looks fine.
        #expect(chooser.next(current: 0, estimate: 20_000_000, bufferedSeconds: 1) == 2)
    }

    @Test func estimatorFollowsDropsFastAndSpikesSlowly() {
        var estimator = BandwidthEstimator()
        for _ in 0..<10 { estimator.add(bytes: 1_250_000, seconds: 1) }  // 10 Mbit/s
        #expect(abs(estimator.estimate! - 10_000_000) < 1)
        estimator.add(bytes: 1_250_000, seconds: 0.1)  // one 100 Mbit/s spike
        #expect(estimator.estimate! < 12_000_000)
        for _ in 0..<4 { estimator.add(bytes: 125_000, seconds: 1) }  // drop to 1 Mbit/s
        #expect(estimator.estimate! < 5_000_000)
    }
}
