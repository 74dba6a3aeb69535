import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
@testable import ZapperHLS

/// Master playlists remembered from earlier tunes: bounded, by URL and headers, young enough.
@Suite struct KnownMastersTests {
    final class Clock: Sendable {
        let seconds = Mutex(1000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    let url = URL(string: "http://tv.example/ch/1/master.m3u8")!
    let answered = URL(string: "http://cdn.example/s/abc/master.m3u8")!

    @Test func aMasterIsRecalledByURLAndHeadersUntilItIsTooOld() {
        let clock = Clock()
        let masters = KnownMasters(maxAge: 600, now: { clock.seconds.withLock { $0 } })
        let key = KnownMasters.key(url, .none)
        masters.remember("#EXTM3U\n", answered: answered, for: key)
        clock.advance(599)
        let recalled = masters.recall(key)
        #expect(recalled?.text == "#EXTM3U\n" && recalled?.url == answered && recalled?.age == 599)
        // Another User-Agent may be answered otherwise: not the same master.
        #expect(masters.recall(KnownMasters.key(url, RequestHeaders(userAgent: "Box/1"))) == nil)
        clock.advance(2)
        #expect(masters.recall(key) == nil, "older than ten minutes")
        #expect(masters.count == 0, "and forgotten")
        // A clock that went back does not make an old master young.
        masters.remember("#EXTM3U\n", answered: answered, for: key)
        clock.advance(-5)
        #expect(masters.recall(key) == nil)
    }

    @Test func aFewAreKeptAndNoneTooLarge() {
        let masters = KnownMasters(capacity: 3, maxBytes: 100)
        for number in 1...5 {
            masters.remember("#EXTM3U\n", answered: answered, for: KnownMasters.key(URL(string: "http://tv.example/\(number).m3u8")!, .none))
        }
        #expect(masters.count == 3)
        #expect(masters.recall(KnownMasters.key(URL(string: "http://tv.example/1.m3u8")!, .none)) == nil, "the oldest went first")
        #expect(masters.recall(KnownMasters.key(URL(string: "http://tv.example/5.m3u8")!, .none)) != nil)
        let key = KnownMasters.key(url, .none)
        masters.remember(String(repeating: "#", count: 101), answered: answered, for: key)
        #expect(masters.recall(key) == nil)
    }
}

/// Over loopback a remembered master is not fetched again, and one that leads nowhere is.
extension HLSLiveSessionTests {
    func master(_ port: Int, variant: String) -> String {
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=426x240\nhttp://127.0.0.1:\(port)/ch/1/\(variant)/index.m3u8\n"
    }

    @Test func aRememberedMasterIsNotFetchedAgain() async throws {
        let origin = try OriginProcess.shared.get()
        let masters = KnownMasters()
        // Remembered for an address that answers nothing now: only the remembered one can play.
        let gone = URL(string: "http://127.0.0.1:\(origin.port)/gone/master.m3u8")!
        masters.remember(master(origin.port, variant: "240p"), answered: gone, for: KnownMasters.key(gone, .none))
        let (session, recorder, consumer) = channelSession(gone, masters: masters)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a segment") { !recorder.deliveries.withLock { $0 }.isEmpty }
        let events = recorder.events.withLock { $0 }
        #expect(events.contains { if case .masterRemembered(_, _, false) = $0 { true } else { false } }, "\(events)")
        #expect(!events.contains { if case .playlistFailed = $0 { true } else { false } }, "\(events)")
    }

    @Test func aRememberedMasterThatLeadsNowhereIsFetchedAgain() async throws {
        let origin = try OriginProcess.shared.get()
        let masters = KnownMasters()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/1/master.m3u8")!
        let key = KnownMasters.key(url, .none)
        masters.remember(master(origin.port, variant: "retired"), answered: url, for: key)
        let (session, recorder, consumer) = channelSession(url, masters: masters)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a segment") { !recorder.deliveries.withLock { $0 }.isEmpty }
        let events = recorder.events.withLock { $0 }
        #expect(events.contains { if case .masterRemembered(_, _, true) = $0 { true } else { false } }, "\(events)")
        // The viewer is told of no failure: the fresh master played.
        #expect(!events.contains { if case .playlistFailed = $0 { true } else { false } }, "\(events)")
        let fresh = try #require(masters.recall(key))
        #expect(!fresh.text.contains("retired") && fresh.text.contains("#EXT-X-STREAM-INF"), "the origin's own master is kept now")
    }

    @Test func aLoneMediaPlaylistIsNeverRemembered() async throws {
        let origin = try OriginProcess.shared.get()
        let masters = KnownMasters()
        let url = URL(string: "http://127.0.0.1:\(origin.port)/ch/1/240p/index.m3u8")!
        let (session, recorder, consumer) = channelSession(url, masters: masters)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a segment") { !recorder.deliveries.withLock { $0 }.isEmpty }
        #expect(masters.count == 0, "a live media playlist changes with every segment")
    }
}
