import Foundation
import Testing
import ZapperCore

/// The parental lock as a layer: it locks the playing channel and withholds its sound, digits
/// go to the PIN, wrong tries are kept, and the next programme's rating applies at its start.
struct ParentalLayerTests {
    static let start = Date(timeIntervalSince1970: 1_796_256_000)
    static let adult = LineupChannel(number: 5, name: "Late", url: URL(string: "http://example.net/5.ts")!, rating: "18")
    static let news = LineupChannel(number: 6, name: "News", url: URL(string: "http://example.net/6.ts")!, guideID: "news")

    static func layer(maxAge: Int? = 12) -> ParentalLayer {
        ParentalLayer(gate: ParentalGate(policy: ParentalGate.Policy(maxAge: maxAge, pinLength: 4)))
    }

    static func context(_ channel: LineupChannel?, at milliseconds: Int = 0,
                        programme: @escaping (LineupChannel, Date) -> Programme? = { _, _ in nil }) -> ParentalLayer.Context {
        ParentalLayer.Context(playing: channel, date: start + Double(milliseconds) / 1000, wallNow: 1_000_000 + milliseconds,
                              programme: programme, verify: { $0 == "1234" })
    }

    @Test func noLimitNoLock() {
        var layer = Self.layer(maxAge: nil)
        #expect(layer.tick(now: 0, in: Self.context(Self.adult)) == [])
        #expect(!layer.withholdsSound && !layer.isLocked)
        #expect(layer.take(.digit(1), now: 0, in: Self.context(Self.adult)) == nil, "digits are the tuner's")
    }

    @Test func aRatedChannelLocksUntilThePIN() {
        var layer = Self.layer()
        #expect(layer.tick(now: 0, in: Self.context(Self.adult)) == [.told(.locked(channel: 5, rating: "18"))])
        #expect(layer.withholdsSound)
        #expect(layer.take(.volumeUp, now: 0, in: Self.context(Self.adult)) == nil, "only digits and Back")
        for digit in [9, 9, 9] { #expect(layer.take(.digit(digit), now: 10, in: Self.context(Self.adult))?.count == 1) }
        guard case .keep(let kept)? = layer.take(.digit(9), now: 10, in: Self.context(Self.adult))?.last else {
            Issue.record("a wrong PIN is kept")
            return
        }
        #expect(kept?.wrongInARow == 1, "a wrong PIN outlasts a restart")
        _ = layer.take(.digit(1), now: 20, in: Self.context(Self.adult))
        #expect(layer.state(now: 20).typedDigits == 1)
        #expect(layer.take(.back, now: 30, in: Self.context(Self.adult)) == [])
        #expect(layer.state(now: 30).typedDigits == 0, "Back clears the digits typed")
        #expect(layer.take(.back, now: 30, in: Self.context(Self.adult)) == nil, "with none typed Back passes")
        var told: [ParentalLayer.Effect] = []
        for digit in [1, 2, 3, 4] { told += layer.take(.digit(digit), now: 40, in: Self.context(Self.adult)) ?? [] }
        #expect(told.contains(.told(.unlocked(channel: 5, reason: .pin))) && told.last == .keep(nil))
        #expect(!layer.withholdsSound && !layer.isLocked)
    }

    @Test func theNextProgrammesRatingAppliesAtItsStart() {
        let film = Programme(channelID: "news", start: Self.start - 600, stop: Self.start + 0.3, title: "Film",
                             ratings: [ProgrammeRating(value: "18")])
        let weather = Programme(channelID: "news", start: Self.start + 0.3, stop: Self.start + 900, title: "Weather")
        let guide: (LineupChannel, Date) -> Programme? = { _, date in film.isOn(at: date) ? film : weather }
        var layer = Self.layer()
        #expect(layer.tick(now: 0, in: Self.context(Self.news, at: 0, programme: guide)) == [.told(.locked(channel: 6, rating: "18"))])
        #expect(layer.tick(now: 299, in: Self.context(Self.news, at: 299, programme: guide)) == [], "looked at again at the end")
        #expect(layer.tick(now: 300, in: Self.context(Self.news, at: 300, programme: guide))
                == [.told(.unlocked(channel: 6, reason: .notRestricted))])
        #expect(!layer.withholdsSound)
    }

    @Test func anotherChannelIsLookedAtAtOnce() {
        var layer = Self.layer()
        _ = layer.tick(now: 0, in: Self.context(Self.news))
        #expect(layer.tick(now: 10, in: Self.context(Self.adult)) == [.told(.locked(channel: 5, rating: "18"))])
        #expect(layer.tick(now: 20, in: Self.context(nil)) == [] && !layer.withholdsSound, "between channels nothing is withheld")
    }
}
