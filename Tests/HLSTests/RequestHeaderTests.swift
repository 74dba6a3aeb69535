import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// A channel's lineup headers go with every request of its session, and only
/// with its own; everything else carries the configured User-Agent.
extension HLSLiveSessionTests {
    @Test func aChannelsHeadersGoWithEveryRequestOfItsSession() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/guarded/ch/2/master.m3u8")!
        let headers = RequestHeaders(userAgent: OriginRouter.guardedUserAgent, referrer: OriginRouter.guardedReferrer)
        let (session, recorder, consumer) = play(url, fetcher: HTTPFetcher.shared.with(headers))
        defer { session.cancel(); consumer.cancel() }
        // The master, a media playlist and segments: each one is refused without the headers.
        try await recorder.waitFor("segments fetched with the channel's headers") {
            recorder.count { if case .segmentFetched = $0 { true } else { false } } >= 2
        }
        #expect(recorder.count { if case .playlistFailed = $0 { true } else { false } } == 0)
        #expect(recorder.count { if case .segmentFailed = $0 { true } else { false } } == 0)
    }

    /// The same with keys (AES-128) and initialization sections (fMP4), each refused without
    /// the headers: their URIs are relative, so they stay behind the guard.
    @Test(arguments: ["ch/2/\(SegmentEncryption.pathPrefix)/master.m3u8",
                      "ch/\(FragmentedMP4.channel)/\(FragmentedMP4.pathPrefix)/master.m3u8",
                      "ch/\(FragmentedMP4.channel)/\(SegmentEncryption.pathPrefix)/\(FragmentedMP4.pathPrefix)/master.m3u8"])
    func keysAndInitializationSectionsCarryTheChannelsHeaders(_ path: String) async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/guarded/\(path)")!
        let headers = RequestHeaders(userAgent: OriginRouter.guardedUserAgent, referrer: OriginRouter.guardedReferrer)
        let (session, recorder, consumer) = play(url, fetcher: HTTPFetcher.shared.with(headers))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("segments of \(path) fetched whole") {
            recorder.count { if case .segmentFetched = $0 { true } else { false } } >= 2
        }
        let failures = recorder.events.withLock { $0.compactMap(\.failure) }
        #expect(failures.isEmpty, "\(failures)")
        // Their bytes decode: a key fetched without the headers would have been a 403, and a wrong key noise.
        let first = try #require(recorder.deliveries.withLock { $0.first })
        #expect(first.bytes.isFinished || first.bytes.appendedCount > 0)
    }

    @Test func withoutItsHeadersTheGuardedChannelIsRefused() async throws {
        let origin = try OriginProcess.shared.get()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/guarded/ch/2/master.m3u8")!
        do {
            _ = try await HTTPFetcher.shared.text(url)
            Issue.record("a guarded master was served without the headers")
        } catch {
            #expect(PlaybackFailure(error).kind == .http(status: 403))
        }
    }

    @Test func theDefaultUserAgentNamesZapperAndItsVersion() async throws {
        let origin = try OriginProcess.shared.get()
        let whoami = URL(string: "http://127.0.0.1:\(origin.port)/guarded/whoami")!
        let fetcher = HTTPFetcher()
        defer { Task { await fetcher.shutdown() } }
        #expect(try await fetcher.text(whoami).contains("User-Agent: Zapper/\(ZapperVersion.current)\n"))
        fetcher.userAgent = "Hotel-Box/7"
        #expect(try await fetcher.text(whoami).contains("User-Agent: Hotel-Box/7\n"))
        // A channel's own headers win over it, and leave the pool's default alone.
        let channel = fetcher.with(RequestHeaders(userAgent: "Channel/1", origin: "https://o.example"))
        let text = try await channel.text(whoami)
        #expect(text.contains("User-Agent: Channel/1\n") && text.contains("Origin: https://o.example"), "\(text)")
        #expect(try await fetcher.text(whoami).contains("User-Agent: Hotel-Box/7\n"))
    }
}
