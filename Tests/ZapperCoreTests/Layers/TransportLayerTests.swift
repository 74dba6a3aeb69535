import Testing
import ZapperCore

/// Time-shift's keys as a layer: a pause measured against the position heard, play on from it,
/// back to live by tuning again, nothing taken before a picture or with time-shift off.
struct TransportLayerTests {
    static func context(heard: Double?, enabled: Bool = true) -> TransportLayer.Context {
        TransportLayer.Context(enabled: enabled, heard: heard)
    }

    @Test func aPauseHeldFiveSecondsPlaysFiveSecondsBehind() {
        var layer = TransportLayer()
        // Live: the position heard runs 100 s behind the player's clock (any gap will do).
        #expect(layer.take(.playPause, now: 110_000, in: Self.context(heard: 10)) == [.freeze, .told(.paused, behindMilliseconds: 0)])
        #expect(layer.state == .paused && layer.showsBar(now: 200_000))
        // Paused, the position stands still while the clock runs on.
        #expect(layer.behind(now: 115_000, heard: 10) == 5)
        #expect(layer.take(.playPause, now: 115_000, in: Self.context(heard: 10)) == [.resume, .told(.playing, behindMilliseconds: 5_000)])
        // Playing on, the distance stays.
        #expect(layer.behind(now: 125_000, heard: 20) == 5)
        #expect(layer.showsBar(now: 119_999) && !layer.showsBar(now: 120_000), "the bar fades 5 s after play")
        // A second pause adds to it.
        #expect(layer.take(.pause, now: 125_000, in: Self.context(heard: 20)) == [.freeze, .told(.paused, behindMilliseconds: 5_000)])
        #expect(layer.take(.play, now: 127_500, in: Self.context(heard: 20)) == [.resume, .told(.playing, behindMilliseconds: 7_500)])
    }

    @Test func pauseOnlyPausesAndPlayOnlyPlays() {
        var layer = TransportLayer()
        #expect(layer.take(.play, now: 1_000, in: Self.context(heard: 1)) == [], "live already: taken, nothing done")
        #expect(layer.take(.pause, now: 1_000, in: Self.context(heard: 1))?.first == .freeze)
        #expect(layer.take(.pause, now: 2_000, in: Self.context(heard: 1)) == [], "paused already")
        #expect(layer.take(.play, now: 3_000, in: Self.context(heard: 1))?.first == .resume)
        #expect(layer.take(.play, now: 4_000, in: Self.context(heard: 2)) == [])
    }

    @Test func liveBehindTheEdgeTunesAgainAndATuneStartsAfresh() {
        var layer = TransportLayer()
        #expect(layer.take(.live, now: 1_000, in: Self.context(heard: 1)) == [], "at the edge: nothing")
        _ = layer.take(.pause, now: 1_000, in: Self.context(heard: 1))
        #expect(layer.take(.live, now: 4_000, in: Self.context(heard: 1)) == [.rejoin])
        #expect(layer.joinedLive() == [.told(.live, behindMilliseconds: 0)])
        #expect(layer.state == .live && layer.behind(now: 9_000, heard: 1) == 0)
        #expect(layer.joinedLive() == [], "told only when it was behind")
    }

    @Test func nothingIsTakenBeforeAPictureOrWithTimeshiftOff() {
        var layer = TransportLayer()
        #expect(layer.take(.playPause, now: 0, in: Self.context(heard: nil)) == nil)
        #expect(layer.take(.playPause, now: 0, in: Self.context(heard: 3, enabled: false)) == nil)
        #expect(layer.take(.ok, now: 0, in: Self.context(heard: 3)) == nil, "not a time-shift key")
        #expect(layer.take(.channelUp, now: 0, in: Self.context(heard: 3)) == nil)
        #expect(layer.state == .live)
    }

    @Test func behindLiveIsNeverBelowZero() {
        var layer = TransportLayer()
        _ = layer.take(.pause, now: 10_000, in: Self.context(heard: 5))
        _ = layer.take(.play, now: 12_000, in: Self.context(heard: 5))
        // The sound clock ran a little ahead of the player's after a resume.
        #expect(layer.behind(now: 13_000, heard: 9) == 0)
    }
}
