import Foundation
import Testing
import ZapperCore

/// Radio channels in the core: how the lineup marks them, CH± skipping them, the sound
/// watch that stands in for the picture watch, and the card that drifts so nothing burns in.
@Suite struct RadioTests {
    static func channel(_ number: Int, radio: String? = nil) -> LineupChannel {
        LineupChannel(number: number, name: "C\(number)", url: URL(string: "http://h/\(number)")!,
                      attributes: radio.map { ["radio": $0] } ?? [:])
    }

    @Test func theLineupMarksRadioChannels() {
        #expect(Self.channel(1, radio: "true").isRadio)
        #expect(Self.channel(1, radio: " TRUE ").isRadio)
        #expect(Self.channel(1, radio: "1").isRadio)
        #expect(!Self.channel(1, radio: "false").isRadio)
        #expect(!Self.channel(1).isRadio)
        let parsed = M3UPlusParser.parse("#EXTM3U\n#EXTINF:-1 radio=\"true\",Radio\nhttp://h/r\n", source: "x")
        #expect(parsed.channels.first?.isRadio == true)
    }

    @Test func flipRadioFalseSkipsThemOnCHButNotWhenNothingIsLeft() {
        let lineup = [Self.channel(1), Self.channel(2, radio: "true"), Self.channel(3)]
        #expect(FlipWithin.all.ring(from: 1, lineup: lineup, favourites: Favourites(), radio: true) == nil)
        #expect(FlipWithin.all.ring(from: 1, lineup: lineup, favourites: Favourites(), radio: false) == [1, 3])
        let onlyRadio = [Self.channel(1, radio: "true"), Self.channel(2, radio: "true")]
        #expect(FlipWithin.all.ring(from: 1, lineup: onlyRadio, favourites: Favourites(), radio: false) == nil)
        // From a radio channel reached by its number, CH+ steps to the next TV channel.
        let ring = FlipWithin.all.ring(from: 2, lineup: lineup, favourites: Favourites(), radio: false)
        var tuner = Tuner(channels: [1, 2, 3], start: 2)
        _ = tuner.handle(.tick, now: 0)
        tuner.flipRing = ring
        _ = tuner.handle(.flip(delta: 1, held: false), now: 10)
        #expect(tuner.view.target == 3)
    }

    @Test func silenceIsToldOnceAfterItsTime() {
        var watch = SoundWatch()
        #expect(watch.update(starved: false, now: 0) == nil)
        #expect(watch.update(starved: true, now: 1000) == nil)
        #expect(watch.update(starved: true, now: 3999) == nil)
        #expect(watch.update(starved: true, now: 4000) == SoundWatch.after)
        #expect(watch.update(starved: true, now: 9000) == nil, "told once")
        // Sound again, then a new run of silence.
        #expect(watch.update(starved: false, now: 9100) == nil)
        #expect(watch.update(starved: true, now: 10_000) == nil)
        #expect(watch.update(starved: true, now: 13_500) == 3500)
    }

    @Test func theRadioCardDriftsInStepsAndStaysInItsRoom() {
        let identity = ChannelIdentity(number: 105, name: "Radio Five", isRadio: true)
        let layout = OverlayLayout(width: 1920, height: 1080)
        var places = Set<String>()
        for step in 0..<400 {
            let at = step * RadioScreen.stepMilliseconds
            let screen = RadioScreen(channel: identity, at: at)
            // Within a step it does not move: the overlay is drawn again only at each step.
            #expect(RadioScreen(channel: identity, at: at + RadioScreen.stepMilliseconds - 1) == screen)
            #expect((-1...1).contains(screen.driftX) && (-1...1).contains(screen.driftY))
            let panel = layout.radio(screen).panel
            #expect(panel.minX >= layout.safe.minX - 0.5 && panel.maxX <= layout.safe.maxX + 0.5)
            // The lower third of the safe area stays free for cards, banners and subtitles.
            #expect(panel.minY >= layout.safe.minY - 0.5 && panel.maxY <= layout.safe.minY + layout.safe.height * 2 / 3 + 0.5)
            places.insert("\(Int(panel.minX)),\(Int(panel.minY))")
        }
        #expect(places.count > 100, "it wanders: \(places.count) places in 400 steps")
        #expect(identity.listedName == "\u{266A} Radio Five")
    }

    @Test func theStateKeepsDeinterlaceAndOldStatesDefaultToAuto() throws {
        var state = ZapperState()
        #expect(state.deinterlace == .auto)
        state.deinterlace = .off
        #expect(try ZapperState.decode(state.encoded()).deinterlace == .off)
        #expect(try ZapperState.decode(Data(#"{"volume": 50}"#.utf8)).deinterlace == .auto)
        #expect(try ZapperState.decode(Data(#"{"deinterlace": "sideways"}"#.utf8)).deinterlace == .auto)
    }
}
