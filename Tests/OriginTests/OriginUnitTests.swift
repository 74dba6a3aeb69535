import Foundation
import Testing
@testable import OriginKit
import TestSupport

@Suite struct FaultSpecTests {
    @Test func parsesEveryKindAndRoundTrips() throws {
        let set = try FaultSet(spec: "segment-404, playlist-5xx=502,stall,bandwidth=200000,truncate=0.25,reset,outage,delay=3000,freeze,no-range")
        #expect(set.segment404)
        #expect(set.playlistStatus == 502)
        #expect(set.stall)
        #expect(set.bytesPerSecond == 200_000)
        #expect(set.truncateFraction == 0.25)
        #expect(set.resetFraction == 0.5)
        #expect(set.outage)
        #expect(set.delayMs == 3000)
        #expect(set.freeze)
        #expect(set.noRange)
        #expect(try FaultSet(spec: set.spec) == set)
        #expect(try FaultSet(spec: "playlist-5xx").playlistStatus == 503)
        #expect(try FaultSet(spec: "").isEmpty)
    }

    @Test(arguments: ["teleport", "delay", "delay=soon", "playlist-5xx=404", "truncate=1.5", "bandwidth=0", "stall=3"])
    func rejectsBadSpecsWithAReason(spec: String) {
        #expect(throws: OriginError.self) { try FaultSet(spec: spec) }
    }

    @Test func stallKeepsTheMomentItBegan() {
        let board = FaultBoard()
        var stall = FaultSet()
        stall.stall = true
        board.set(stall, channel: 3, now: 1000)
        #expect(board.playlistTime(channel: 3, now: 1010) == 1000)
        // Adding another fault keeps the stall's start.
        stall.delayMs = 100
        board.set(stall, channel: 3, now: 1020)
        #expect(board.playlistTime(channel: 3, now: 1030) == 1000)
        board.set(FaultSet(), channel: 3, now: 1040)
        #expect(board.playlistTime(channel: 3, now: 1050) == 1050)
        #expect(board.all.isEmpty)
    }
}

@Suite struct LiveTimelineTests {
    let timeline = LiveTimeline(segmentSeconds: 2, loopSegments: 10, windowSegments: 6)

    @Test func windowEndsAtTheNewestCompleteSegment() {
        #expect(timeline.window(at: 1000.0) == 494...499)
        #expect(timeline.window(at: 1001.9) == 494...499)
        #expect(timeline.window(at: 1002.0) == 495...500)
    }

    @Test func discontinuityNumbersAgreeBetweenReloads() {
        // A segment must have the same discontinuity number in every playlist that lists it.
        for start in stride(from: 1000.0, to: 1100.0, by: 2) {
            for time in [start, start + 2, start + 6] {
                let window = timeline.window(at: time)
                var number = timeline.discontinuitySequence(first: window.lowerBound)
                for sequence in window {
                    if timeline.startsLoop(sequence) { number += 1 }
                    #expect(number == timeline.discontinuityNumber(of: sequence))
                }
            }
        }
    }

    @Test func segmentsStayServableForAWindowAfterLeaving() {
        let window = timeline.window(at: 1000)
        #expect(timeline.isServable(window.upperBound, at: 1000))
        #expect(!timeline.isServable(window.upperBound + 1, at: 1000))
        #expect(timeline.isServable(window.lowerBound - 5, at: 1000))
        #expect(!timeline.isServable(window.lowerBound - 6, at: 1000))
    }

    @Test func mediaPlaylistMarksLoopRestarts() {
        let writer = PlaylistWriter(timeline: timeline)
        let text = writer.media(durations: Array(repeating: 2.0, count: 10), segmentExtension: "ts", at: 1010)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("#EXT-X-MEDIA-SEQUENCE:499"))
        #expect(lines.contains("#EXT-X-TARGETDURATION:2"))
        // Segment 500 restarts the loop: the tag stands right before its date and duration.
        let index = try! #require(lines.firstIndex(of: "500.ts"))
        #expect(lines[index - 3] == "#EXT-X-DISCONTINUITY")
        #expect(lines[index - 2] == "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:16:40.000Z")
        #expect(lines.filter { $0 == "#EXT-X-DISCONTINUITY" }.count == 1)
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") }.count == 6)
    }
}

@Suite struct CatalogTests {
    @Test func committedLineupIsWhatTheOriginServesOnItsDefaultPort() throws {
        let catalog = try ChannelCatalog.load(from: Repo.catalogURL)
        let committed = try String(contentsOf: Repo.root.appendingPathComponent("channels/demo.m3u"), encoding: .utf8)
        #expect(committed == GuideWriter(catalog: catalog).lineup(baseURL: "http://127.0.0.1:8600"))
    }

    @Test func catalogHasWhatTheDemoNeeds() throws {
        let catalog = try ChannelCatalog.load(from: Repo.catalogURL)
        #expect(catalog.channels.count >= 8)
        #expect(Set(catalog.channels.map(\.group)).count >= 2)
        #expect(catalog.channels.filter { $0.audio.count > 1 && !$0.subtitleTracks.isEmpty }.count >= 2)
        #expect(catalog.channels.flatMap(\.audio).allSatisfy { $0.streamLanguage?.count == 3 })
        #expect(catalog.channels.contains { $0.syncFlash != nil })
        // Tones far enough apart to tell by spectrum.
        let tones = catalog.channels.flatMap { $0.audio.map(\.toneHz) }.sorted()
        #expect(Set(tones).count == tones.count)
        #expect(zip(tones, tones.dropFirst()).allSatisfy { $1 - $0 >= 50 })
        // Colours far enough apart to tell by a snapshot.
        let colours = catalog.channels.compactMap(\.rgb)
        for (i, a) in colours.enumerated() {
            for b in colours[(i + 1)...] {
                let distance = abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
                #expect(distance >= 90)
            }
        }
    }

    @Test func badCatalogNamesTheFileAndTheProblem() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        try Data(#"{"segmentSeconds": 2, "loopSeconds": 3, "windowSegments": 6, "channels": []}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try ChannelCatalog.load(from: url)
            Issue.record("a loop that is not a multiple of the segment was accepted")
        } catch {
            #expect("\(error)".contains(url.path))
            #expect("\(error)".contains("multiple"))
        }
        try Data(#"{"segmentSeconds": 2}"#.utf8).write(to: url)
        #expect(throws: OriginError.self) { try ChannelCatalog.load(from: url) }
    }
}

@Suite struct EncodeCacheTests {
    @Test func aChangedChannelEncodesOnlyItselfAgain() throws {
        let catalog = try Repo.catalog()
        func folders(_ catalog: ChannelCatalog, ffmpeg: String = "ffmpeg 6") throws -> [String] {
            try catalog.channels.map { try EncodeCache.folderName(channel: $0, catalog: catalog, ffmpeg: ffmpeg, font: "font.ttf") }
        }
        let before = try folders(catalog)
        #expect(Set(before).count == before.count)
        #expect(before[0].hasPrefix("ch\(catalog.channels[0].number)-"))
        var changed = catalog
        changed.channels[1].audio.append(.init(language: "fr", name: "Français", toneHz: 1_650))
        let after = try folders(changed)
        #expect(after[1] != before[1])
        #expect(after.indices.filter { after[$0] != before[$0] } == [1])
        // Another ffmpeg, or another loop length, encodes everything.
        #expect(zip(try folders(catalog, ffmpeg: "ffmpeg 7"), before).allSatisfy { $0 != $1 })
        var longer = catalog
        longer.loopSeconds = 40
        #expect(zip(try folders(longer), before).allSatisfy { $0 != $1 })
    }

    @Test func anUnknownLanguageOrATwiceUsedOneIsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lang-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        for audio in [#"[{"language": "xx", "name": "X", "toneHz": 500}]"#,
                      #"[{"language": "en", "name": "A", "toneHz": 500}, {"language": "en", "name": "B", "toneHz": 600}]"#] {
            let json = #"{"segmentSeconds": 2, "loopSeconds": 20, "windowSegments": 6, "channels": ["#
                + ##"{"number": 1, "id": "a", "name": "A", "group": "G", "colour": "#102030", "audio": "## + audio + "}]}"
            try Data(json.utf8).write(to: url)
            #expect(throws: OriginError.self) { try ChannelCatalog.load(from: url) }
        }
    }
}

@Suite struct SubtitleSegmentTests {
    @Test func cueSitsInsideItsSegmentAndNamesIt() throws {
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channels.first { !$0.subtitleTracks.isEmpty })
        let writer = PlaylistWriter(timeline: LiveTimeline(catalog: catalog))
        let durations = [2.0, 2.0, 1.9, 2.1, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
        // Sequence 1003 is loop segment 3: it starts 5.9 s into the loop.
        let text = writer.subtitleSegment(channel: channel, track: channel.subtitleTracks[0], sequence: 1003,
                                          loopDurations: durations, videoStartPTS: 132_000)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "WEBVTT")
        #expect(lines[1] == "X-TIMESTAMP-MAP=MPEGTS:132000,LOCAL:00:00:00.000")
        #expect(lines[2] == "")
        #expect(lines[3] == "1003")
        #expect(lines[4] == "00:00:06.000 --> 00:00:07.900 line:85%")
        #expect(lines[5] == "\(channel.name) · \(channel.subtitleTracks[0].language) · cue 1003")
        #expect(lines[6] == "(\(channel.subtitleTracks[0].name), 4 of 10)")
    }
}
