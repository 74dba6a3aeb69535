import Testing
import Foundation
import ZapperCore

struct PlaybackFailureTests {
    @Test(arguments: [
        (PlaybackFailure.Kind.unreachable, "The channel cannot be reached"),
        (.http(status: 503), "The channel's server has a problem"),
        (.http(status: 404), "This channel is not on the air"),
        (.http(status: 410), "This channel is not on the air"),
        (.http(status: 403), "This channel is not available here"),
        (.http(status: 418), "The channel cannot be played"),
        (.timeout, "The channel is not responding"),
        (.stalled, "The channel stopped sending"),
        (.frozen, "The channel stopped sending"),
        (.frozenPicture, "The channel's picture froze"),
        (.blackPicture, "The channel's picture is black"),
        (.noPicture, "No picture from the channel"),
        (.refused, "The channel's address is not allowed"),
        (.noSuchChannel(13), "No channel 13"),
        (.decode, "The channel cannot be played"),
        (.truncated, "The channel cannot be played"),
        (.unsupported(.webPage), "The channel's address is a web page, not a stream"),
        (.unsupported(.dash), "The channel is in a format this box does not play (DASH)"),
        (.unsupported(.empty), "The channel sent nothing"),
        (.unsupported(.notAStream), "The channel's address does not give a stream"),
        (.unsupported(.encryption), "The channel is locked with a system this box cannot unlock"),
    ])
    func theCardSaysWhatTheKindMeans(kind: PlaybackFailure.Kind, words: String) {
        #expect(PlaybackFailure(kind, "technical detail").words == words)
    }

    @Test func theLogNamesTheKind() {
        #expect(PlaybackFailure(.http(status: 404), "x").name == "http-404")
        #expect(PlaybackFailure(.noPicture, "x").name == "no-picture")
        #expect(PlaybackFailure(.tooLarge, "x").name == "too-large")
        #expect(PlaybackFailure(.frozenPicture, "x").name == "frozen-picture")
        #expect(PlaybackFailure(.blackPicture, "x").name == "black-picture")
        // One name for every form: the reason's words tell them apart.
        #expect(PlaybackFailure(.unsupported(.dash), "x").name == "unsupported")
        #expect(PlaybackFailure(.unsupported(.encryption), "x").name == "unsupported")
    }

    struct Typed: PlaybackFailureConvertible {
        var playbackFailure: PlaybackFailure { PlaybackFailure(.invalid, "line 3: bad") }
    }
    struct Untyped: Error {}

    @Test func anyErrorBecomesAFailureKeepingItsKind() {
        #expect(PlaybackFailure(Typed()) == PlaybackFailure(.invalid, "line 3: bad"))
        #expect(PlaybackFailure(PlaybackFailure(.timeout, "t")).kind == .timeout)
        #expect(PlaybackFailure(Untyped()).kind == .other)
        #expect(PlaybackFailure(.timeout, "http://h/1.ts: read").at("segment 1") == PlaybackFailure(.timeout, "segment 1: http://h/1.ts: read"))
    }

    @Test func aBadPlaylistIsInvalid() {
        #expect(throws: HLSParseError.self) { try HLSParser.parse("not a playlist", url: URL(string: "http://h/x.m3u8")!) }
        do {
            _ = try HLSParser.parse("not a playlist", url: URL(string: "http://h/x.m3u8")!)
        } catch {
            #expect(PlaybackFailure(error).kind == .invalid)
        }
    }
}
