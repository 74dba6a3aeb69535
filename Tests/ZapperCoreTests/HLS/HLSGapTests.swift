import Foundation
import Testing
@testable import ZapperCore

/// EXT-X-GAP (RFC 8216bis §4.4.4.7): the segment after it is missing. It keeps
/// its place on the timeline: its sequence number, duration and date count.
@Suite struct HLSGapTests {
    let base = URL(string: "https://cdn.example/live/index.m3u8")!

    func media(_ text: String) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try HLSParser.parse(text, url: base) else {
            throw HLSParseError(source: "test", line: 0, reason: "parsed as a master playlist")
        }
        return playlist
    }

    @Test func aGapMarksOnlyTheNextSegmentAndTheTimelineRunsOn() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:4,
            100.ts
            #EXT-X-GAP
            #EXTINF:3.5,
            101.ts
            #EXTINF:4,
            102.ts
            #EXTINF:4,
            #EXT-X-GAP
            103.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            104.ts
            """)
        #expect(playlist.segments.map(\.gap) == [false, true, false, true, false])
        #expect(playlist.segments.map(\.sequence) == [100, 101, 102, 103, 104])
        #expect(playlist.totalDuration == 17.5)
        // The segment after a gap keeps the time the gap's duration brings it to.
        let start = try #require(playlist.segments[0].programDate)
        #expect(playlist.segments[2].programDate == start.addingTimeInterval(7.5))
        #expect(playlist.segments[2].uri.absoluteString == "https://cdn.example/live/102.ts")
        #expect(playlist.segments[4].discontinuity && playlist.segments[4].discontinuitySequence == 1)
    }

    @Test func aGapInAMasterPlaylistMixesTags() throws {
        do {
            _ = try HLSParser.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-GAP\n", url: base)
            Issue.record("parsed")
        } catch {
            #expect(error.line == 4 && error.reason.contains("mixes master and media tags"))
        }
    }

    /// The cursor hands a gap on like any other segment: the session skips it, and
    /// the segment after it comes next, in sequence.
    @Test func theCursorCountsGapsInSequence() throws {
        let playlist = try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2,\na.ts\n#EXT-X-GAP\n#EXTINF:2,\nb.ts\n#EXTINF:2,\nc.ts\n")
        var cursor = LiveSegmentCursor()
        cursor.resume(at: 7)
        let update = cursor.update(playlist, at: 0)
        #expect(update.segments.map(\.sequence) == [7, 8, 9])
        #expect(update.segments.filter { !$0.gap }.map(\.sequence) == [7, 9])
        #expect(cursor.nextSequence == 10)
    }
}
