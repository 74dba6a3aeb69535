import Foundation
import Testing
import ZapperCore

/// A reminder's notice as a layer: told once when due, OK or the start (when set to) switches,
/// a reminder on the channel already tuned just goes, one nobody followed is missed; every
/// change is to be kept.
struct ReminderLayerTests {
    static let channel = LineupChannel(number: 5, name: "Five", url: URL(string: "http://example.net/5.m3u8")!, guideID: "five")
    static let start = Date(timeIntervalSince1970: 1_795_550_400)
    static let seconds = Int(start.timeIntervalSince1970)
    static let news = Programme(channelID: "five", start: start, stop: start + 1800, title: "News")

    static func context(_ date: Date, target: Int = 1, typing: Bool = false) -> ReminderLayer.Context {
        ReminderLayer.Context(date: date, target: target, typingNumber: typing) { $0 == channel.stateKey ? 5 : nil }
    }

    /// A layer with the news reminder set (the set told and kept).
    static func withTheNews(switchAtStart: Bool = false) -> ReminderLayer {
        var layer = ReminderLayer(kept: [], switchAtStart: switchAtStart)
        let set = layer.toggle(channel: channel, news)
        #expect(set.last == .told(channel: 5, start: seconds, action: .set))
        #expect(set.first == .keep(layer.reminders.entries) && layer.reminders.entries.count == 1)
        return layer
    }

    @Test func theNoticeIsToldOnceAndOKSwitches() {
        var layer = Self.withTheNews()
        #expect(layer.tick(now: 0, in: Self.context(Self.start - 61)) == [])
        #expect(layer.take(.ok, now: 0, in: Self.context(Self.start - 61)) == nil, "no notice up: OK is the tuner's")
        #expect(layer.tick(now: 1_000, in: Self.context(Self.start - 60)) == [.told(channel: 5, start: Self.seconds, action: .due)])
        #expect(layer.tick(now: 2_000, in: Self.context(Self.start - 59)) == [], "told once")
        #expect(layer.notice(at: Self.start - 59, number: { _ in 5 }, name: { _ in "Five" }) == "In 1 min on 5 Five: News · OK to switch")
        #expect(layer.take(.ok, now: 2_000, in: Self.context(Self.start - 59, typing: true)) == nil, "OK finishes a number first")
        #expect(layer.take(.ok, now: 2_000, in: Self.context(Self.start - 59))
                == [.told(channel: 5, start: Self.seconds, action: .switched), .keep([]), .tune(channel: 5)])
        #expect(layer.noticed == nil && layer.notice(at: Self.start, number: { _ in 5 }, name: { _ in "" }) == nil)
    }

    @Test func itIsLookedAtOnceASecond() {
        var layer = Self.withTheNews()
        #expect(layer.tick(now: 0, in: Self.context(Self.start - 70)) == [])
        #expect(layer.tick(now: 999, in: Self.context(Self.start - 60)) == [], "not yet looked at again")
        #expect(layer.tick(now: 1_000, in: Self.context(Self.start - 60)).count == 1)
    }

    @Test func theStartSwitchesWhenSetTo() {
        var layer = Self.withTheNews(switchAtStart: true)
        #expect(layer.tick(now: 0, in: Self.context(Self.start - 1)) == [.told(channel: 5, start: Self.seconds, action: .due)])
        #expect(layer.tick(now: 1_000, in: Self.context(Self.start))
                == [.told(channel: 5, start: Self.seconds, action: .switched), .keep([]), .tune(channel: 5)])
    }

    @Test func onItsChannelAlreadyItJustGoesAtTheStart() {
        var layer = Self.withTheNews()
        #expect(layer.tick(now: 0, in: Self.context(Self.start - 30, target: 5)) == [], "no notice on the channel watched")
        #expect(layer.tick(now: 1_000, in: Self.context(Self.start, target: 5)) == [.keep([])])
        #expect(layer.reminders.entries.isEmpty)
    }

    @Test func aNoticeNobodyFollowedIsMissed() {
        var layer = Self.withTheNews()
        _ = layer.tick(now: 0, in: Self.context(Self.start - 10))
        #expect(layer.tick(now: 1_000, in: Self.context(Self.start + 60))
                == [.told(channel: 5, start: Self.seconds, action: .missed), .keep([])])
        #expect(layer.noticed == nil)
    }

    @Test func oneWhoseTimePassedUnseenGoesWithoutAWord() {
        var layer = Self.withTheNews()
        #expect(layer.tick(now: 0, in: Self.context(Self.start + 3_600)) == [.keep([])], "a box that was off: kept, not told")
    }

    @Test func settingAgainClears() {
        var layer = Self.withTheNews()
        #expect(layer.toggle(channel: Self.channel, Self.news) == [.keep([]), .told(channel: 5, start: Self.seconds, action: .cleared)])
    }
}
