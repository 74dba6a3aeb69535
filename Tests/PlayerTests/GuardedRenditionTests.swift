import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
@testable import ZapperEngine

/// A channel's separate audio rendition and its subtitles are fetched with the channel's
/// lineup headers too: behind the origin's guard (403 without them) both play.
@Suite(.timeLimit(.minutes(2)))
struct GuardedRenditionTests {
    /// Channel `number`'s `file` behind the guard, played with the headers the guard wants.
    func guardedPlayback(_ number: Int, _ file: String) throws -> (ChannelPlayback, NewsBox) {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/guarded/ch/\(number)/\(file)")!
        let channel = LineupChannel(number: number, name: "Guarded", url: url,
                                    headers: RequestHeaders(userAgent: OriginRouter.guardedUserAgent, referrer: OriginRouter.guardedReferrer))
        let news = NewsBox()
        let playback = ChannelPlayback(channel: channel, serial: 1, sampleRate: 48_000, parametersCache: ParametersCache()) { item, _ in
            news.add(item)
        }
        playback.start()
        return (playback, news)
    }

    @Test func separateAudioCarriesTheChannelsHeaders() async throws {
        let (playback, news) = try guardedPlayback(SplitAudio.channels[0], SplitAudio.masterFile)
        defer { playback.stop() }
        let deadline = Date().addingTimeInterval(30)
        // The first picture sets where the sound is taken from (taking a picture consumes it:
        // once is enough); then the rendition's sound from that time on.
        var first: TimedPicture?
        while first == nil, Date() < deadline {
            first = playback.picture(at: nil)
            if first == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let start = try #require(first, "no picture: \(news.items)").time
        var sound: AudioTake?
        while sound == nil, Date() < deadline {
            sound = playback.takeAudio(frames: 4_800, from: start)
            if sound == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let take = try #require(sound, "no sound from the separate rendition: \(news.items)")
        #expect(playback.tracks.playingAudio?.uri != nil, "the sound is a rendition of its own")
        #expect(take.samples.contains { $0 != 0 })
        #expect(news.items.isEmpty, "nothing failed: \(news.items)")
    }

    @Test func subtitlesCarryTheChannelsHeaders() async throws {
        let number = try #require(try Repo.catalog().channels.first { !$0.subtitleTracks.isEmpty }?.number)
        let (playback, news) = try guardedPlayback(number, "master.m3u8")
        defer { playback.stop() }
        let deadline = Date().addingTimeInterval(30)
        while playback.tracks.subtitleRenditions.isEmpty || playback.tracks.startSequence == nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let rendition = try #require(playback.tracks.subtitleRenditions.first, "\(news.items)")
        let cues = NewsBox()
        let follower = playback.followSubtitles(rendition, url: try #require(rendition.uri), from: playback.tracks.startSequence ?? 0,
                                                cues: { if !$0.isEmpty { cues.add(.cues($0.count)) } }, trouble: { cues.add(.trouble("\($0)")) })
        while cues.items.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        withExtendedLifetime(follower) {}
        #expect(cues.items.contains { if case .cues = $0 { true } else { false } }, "\(cues.items)")
        #expect(!cues.items.contains { if case .trouble = $0 { true } else { false } }, "\(cues.items)")
        #expect(news.items.isEmpty, "nothing failed: \(news.items)")
    }

    final class NewsBox: @unchecked Sendable {
        enum Item { case news(PlaybackNews), cues(Int), trouble(String) }
        private let lock = NSLock()
        private var stored: [Item] = []
        func add(_ news: PlaybackNews) { add(.news(news)) }
        func add(_ item: Item) { lock.withLock { stored.append(item) } }
        var items: [Item] { lock.withLock { stored } }
    }
}
