import Testing
import ZapperCore

/// An overlay element's appearance: in over 180 ms when content comes, out over 180 ms when it goes
/// (keeping its last content meanwhile), reversed from where it is, content changed in place.
struct PresenceTests {
    private let step = Double(Presence<String>.headStart) / Presence<String>.milliseconds

    @Test func itAnimatesInAndOutKeepingItsLastContent() {
        var card = Presence<String>()
        #expect(card.update(nil, now: 0) == nil)
        let first = card.update("CH 2", now: 1000)!
        #expect(first.content == "CH 2")
        #expect(first.appearance > 0)
        #expect(abs(first.appearance - step) < 1e-9)  // one frame along in the frame that shows it
        #expect(card.update("CH 2", now: 1090)!.appearance < 1)
        #expect(card.update("CH 2", now: 1163)!.appearance == 1)
        let fading = card.update(nil, now: 2000)!
        #expect(fading.content == "CH 2")  // still drawn while it fades
        #expect(abs(fading.appearance - (1 - step)) < 1e-9)
        #expect(card.update(nil, now: 2100)!.appearance > 0)
        #expect(card.update(nil, now: 2163) == nil)
        #expect(card.content == nil)
    }

    @Test func aChangeWhileShownIsInPlaceAndAReversalStartsFromWhereItIs() {
        var card = Presence<String>()
        _ = card.update("CH 2", now: 0)
        _ = card.update("CH 2", now: 500)
        let changed = card.update("CH 3", now: 510)!
        #expect(changed.content == "CH 3")
        #expect(changed.appearance == 1)  // no new animation for new content
        _ = card.update(nil, now: 600)  // starts going out…
        let half = card.update(nil, now: 673)!.appearance  // 90 ms into it: half way
        #expect(abs(half - 0.5) < 1e-9)
        let back = card.update("CH 4", now: 673)!  // …and comes back from there, not from 0
        #expect(back.content == "CH 4")
        #expect(abs(back.appearance - (0.5 + step)) < 1e-9)
    }
}
