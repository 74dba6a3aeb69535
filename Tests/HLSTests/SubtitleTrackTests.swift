import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia

/// The subtitle track follows the origin's live WebVTT playlist on loopback.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SubtitleTrackTests {
    final class Collected: Sendable {
        let cues = Mutex<[SubtitleCue]>([])
        let events = Mutex<[HLSEvent]>([])
    }

    func follow(_ url: URL, startSequence: Int64? = nil) -> (SubtitleTrack, Collected) {
        let collected = Collected()
        let track = SubtitleTrack(url: url, startSequence: startSequence, cues: { cues in
            collected.cues.withLock { $0 += cues }
        }, events: { event in
            collected.events.withLock { $0.append(event) }
        })
        track.start()
        return (track, collected)
    }

    func waitFor(_ what: String, seconds: Double = 20, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw RawHTTPConnection.Failure(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The first video PTS (seconds) of a video segment of the same channel and sequence.
    func firstPicture(port: Int, channel: Int, sequence: Int64) throws -> Double {
        let segment = try RawHTTPConnection.fetch(port: port, "GET", "/ch/\(channel)/240p/\(sequence).ts")
        #expect(segment.status == 200)
        let queue = ByteQueue()
        queue.append(Data(segment.body))
        queue.finish()
        let demuxer = try Demuxer(queue: queue)
        let video = try #require(demuxer.firstStream(.video))
        var earliest = Double.infinity
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == video, let pts = packet.pts else { continue }
            let base = demuxer.timeBase(stream: video)
            earliest = min(earliest, Double(pts) * Double(base.numerator) / Double(base.denominator))
        }
        return earliest
    }

    @Test func followsTheLivePlaylistWithCuesInTimeWithTheVideo() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channels.first { !$0.subtitleTracks.isEmpty })
        let language = channel.subtitleTracks[0].language
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/\(channel.number)/subs-\(language)/index.m3u8")!
        let (track, collected) = follow(url)
        defer { track.stop() }
        // Starts behind the edge, then keeps up with the live edge: a new cue every segment.
        try await waitFor("three cues") { collected.cues.withLock { $0.count } >= 3 }
        let firstCount = collected.cues.withLock { $0.count }
        try await waitFor("a cue from a newer segment", seconds: 8) { collected.cues.withLock { $0.count } > firstCount }

        let cues = collected.cues.withLock { $0 }
        let sequences = cues.map(\.sequence)
        #expect(sequences == Array(sequences[0]...sequences[0] + Int64(sequences.count - 1)), "each segment once, in order")
        let edge = Int64(Date().timeIntervalSince1970 / Double(catalog.segmentSeconds)) - 1
        #expect(edge - sequences.last! <= Int64(catalog.windowSegments))
        for cue in cues {
            #expect(cue.text.hasPrefix("\(channel.name) · \(language) · cue \(cue.sequence)\n"), "\(cue.text)")
            #expect(cue.end > cue.start)
        }
        // In time: each cue starts 0.1 s after the first picture of the video segment with its number.
        for cue in cues.suffix(2) {
            let picture = try firstPicture(port: origin.port, channel: channel.number, sequence: cue.sequence)
            #expect(abs(cue.start - (picture + 0.1)) < 0.04, "cue \(cue.sequence) at \(cue.start) s, its pictures from \(picture) s")
        }
        #expect(collected.events.withLock { $0 }.allSatisfy {
            if case .segmentFailed = $0 { return false }
            if case .playlistFailed = $0 { return false }
            return true
        })
    }

    @Test func startsWhereToldAndStopsDelivering() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channels.last { !$0.subtitleTracks.isEmpty })
        let language = channel.subtitleTracks.last!.language
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/\(channel.number)/subs-\(language)/index.m3u8")!
        // A segment from the middle of the window, as a video that started there would ask for: it
        // stays listed for half the window, however slowly the track starts (the oldest one may
        // be gone by then on a loaded machine, and is then rightly skipped).
        let playlist = try await RawHTTPConnection.fetch(port: origin.port, "GET", url.path).text
        let listed = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { Int64($0.dropLast(4)) }
        try #require(listed.count >= 3, "\(playlist)")
        let start = listed[listed.count / 2]
        let (track, collected) = follow(url, startSequence: start)
        try await waitFor("the cues from there") { collected.cues.withLock { $0.count } >= 2 }
        #expect(collected.cues.withLock { $0.first?.sequence } == start)
        track.stop()
        await track.finished()
        let stopped = collected.cues.withLock { $0.count }
        try await Task.sleep(for: .seconds(Double(catalog.segmentSeconds) * 1.6))
        #expect(collected.cues.withLock { $0.count } == stopped, "no cue after stop()")
    }

    @Test func segmentsThatExpiredAreSkippedWithAnEvent() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channels.first { !$0.subtitleTracks.isEmpty })
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/\(channel.number)/subs-\(channel.subtitleTracks[0].language)/index.m3u8")!
        let playlist = try await RawHTTPConnection.fetch(port: origin.port, "GET", url.path).text
        let oldest = try #require(playlist.split(separator: "\n").first { !$0.hasPrefix("#") }.flatMap { Int64($0.dropLast(4)) })
        // Asked to start five segments before the window: those are gone.
        let (track, collected) = follow(url, startSequence: oldest - 5)
        defer { track.stop() }
        try await waitFor("the first cues") { collected.cues.withLock { $0.count } >= 2 }
        let expired = try #require(collected.events.withLock { events in
            events.compactMap { if case .segmentsExpired(let range) = $0 { range } else { nil } }.first
        })
        #expect(expired.lowerBound == oldest - 5)
        #expect(collected.cues.withLock { $0.first?.sequence } == expired.upperBound + 1)
    }

    /// The video session reports the master it loaded: where the player finds the renditions to offer.
    @Test func theVideoSessionReportsTheRenditionsOfItsMaster() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channels.first { $0.audio.count > 1 && !$0.subtitleTracks.isEmpty })
        let events = Mutex<[HLSEvent]>([])
        let session = HLSLiveSession(url: URL(string: "http://127.0.0.1:\(origin.port)/ch/\(channel.number)/master.m3u8")!,
                                     fetcher: .shared, bufferedSeconds: { 0 }) { event in events.withLock { $0.append(event) } }
        session.start()
        defer { session.cancel() }
        try await waitFor("the master") { events.withLock { $0.contains { if case .masterLoaded = $0 { true } else { false } } } }
        let master = try #require(events.withLock { events in
            events.compactMap { if case .masterLoaded(let master) = $0 { master } else { nil } }.first
        })
        let variant = try #require(master.variants.first)
        let audio = master.renditions(.audio, group: variant.audioGroup)
        #expect(audio.map(\.language) == channel.audio.map(\.language))
        #expect(audio.allSatisfy { $0.uri == nil }, "muxed: no URI")
        #expect(audio.first?.isDefault == true)
        let subtitles = master.renditions(.subtitles, group: variant.subtitlesGroup)
        #expect(subtitles.map(\.language) == channel.subtitleTracks.map(\.language))
        let uri = try #require(subtitles.first?.uri)
        #expect(uri.absoluteString == "http://127.0.0.1:\(origin.port)/ch/\(channel.number)/subs-\(channel.subtitleTracks[0].language)/index.m3u8")
    }

    @Test func aMissingPlaylistIsRetriedAndReported() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/2/subs-xx/index.m3u8")!
        let (track, collected) = follow(url)
        try await waitFor("two failed loads", seconds: 10) {
            collected.events.withLock { $0.filter { if case .playlistFailed = $0 { true } else { false } }.count } >= 2
        }
        track.stop()
        await track.finished()
        #expect(collected.cues.withLock { $0.isEmpty })
        let failure = try #require(collected.events.withLock { $0.first })
        #expect(failure.line.contains("HTTP 404"))
    }
}
