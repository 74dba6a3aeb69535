import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// `Date` from a UTC calendar date, through Foundation's Calendar (the oracle for XMLTVTime).
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
         offset: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: offset)!
    return calendar.date(from: DateComponents(year: year, month: month, day: day,
                                              hour: hour, minute: minute, second: second))!
}

func programme(_ channel: String, _ start: Int, _ stop: Int, _ title: String = "") -> Programme {
    Programme(channelID: channel, start: Date(timeIntervalSince1970: TimeInterval(start)),
              stop: Date(timeIntervalSince1970: TimeInterval(stop)), title: title.isEmpty ? "\(channel)@\(start)" : title)
}

func at(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

@Suite struct XMLTVTimeTests {
    @Test func readsTheFormsProvidersWrite() {
        #expect(XMLTVTime.date("20261121063000 +0100") == utc(2026, 11, 21, 5, 30))
        #expect(XMLTVTime.date("20261121063000") == utc(2026, 11, 21, 6, 30))
        #expect(XMLTVTime.date("202611210630 -0500") == utc(2026, 11, 21, 11, 30))
        #expect(XMLTVTime.date("20261121063015+0100") == utc(2026, 11, 21, 5, 30, 15))
        #expect(XMLTVTime.date("20261121063000 +01:00") == utc(2026, 11, 21, 5, 30))
        #expect(XMLTVTime.date("20261121063000 +0530") == utc(2026, 11, 21, 1, 0))
        #expect(XMLTVTime.date("20261121063000 -0930") == utc(2026, 11, 21, 16, 0))
        #expect(XMLTVTime.date("20261121063000 +01") == utc(2026, 11, 21, 5, 30))
        #expect(XMLTVTime.date("20261121063000 Z") == utc(2026, 11, 21, 6, 30))
        #expect(XMLTVTime.date("20261121063000 UTC") == utc(2026, 11, 21, 6, 30))
        #expect(XMLTVTime.date(" 20261121063000 GMT\r\n") == utc(2026, 11, 21, 6, 30))
        #expect(XMLTVTime.date("2026112106") == utc(2026, 11, 21, 6))
        #expect(XMLTVTime.date("20261121") == utc(2026, 11, 21))
        // Across midnight, a year and a leap day.
        #expect(XMLTVTime.date("20270101003000 +0200") == utc(2026, 12, 31, 22, 30))
        #expect(XMLTVTime.date("20280229120000") == utc(2028, 2, 29, 12))
    }

    @Test func refusesWhatIsNotATime() {
        for text in ["", "abc", "2026", "2026112106300", "202611210630000", "20261321063000", "20260230063000",
                     "20270229120000", "20261121243000", "20261121066000", "20261121063000 +2500",
                     "20261121063000 CET", "20261121063000 +01:00:00", "20261121063000 0100", "20261121063000 +1",
                     "2026-11-21 06:30"] {
            #expect(XMLTVTime.seconds(text) == nil, "\(text)")
        }
    }

    /// Any time with any offset reads back as Foundation's calendar says.
    @Test func agreesWithTheCalendar() async {
        await propertyCheck(count: 400, input: Gen.int(in: 1900...2199), Gen.int(in: 1...12), Gen.int(in: 1...28),
                            Gen.int(in: 0...86_399), Gen.int(in: -48...56)) { year, month, day, second, quarters in
            let offset = quarters * 900
            let hour = second / 3600, minute = second / 60 % 60, sec = second % 60
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            let sign = offset < 0 ? "-" : "+"
            let text = "\(year)\(two(month))\(two(day))\(two(hour))\(two(minute))\(two(sec)) \(sign)\(two(abs(offset) / 3600))\(two(abs(offset) / 60 % 60))"
            #expect(XMLTVTime.date(text) == utc(year, month, day, hour, minute, sec, offset: offset), "\(text)")
        }
    }

    @Test func formatsWhatItReads() async {
        await propertyCheck(count: 400, input: Gen.int(in: -2_208_988_800...7_258_118_400)) { seconds in
            let text = XMLTVTime.format(seconds: Int64(seconds))
            #expect(XMLTVTime.seconds(text) == Int64(seconds), "\(text)")
        }
        #expect(XMLTVTime.format(seconds: 0) == "19700101000000 +0000")
    }
}

@Suite struct GuideModelTests {
    let guide = Guide(programmes: [
        programme("a", 1000, 2000), programme("a", 3000, 4000), programme("a", 2000, 3000),
        programme("b", 0, 500),
    ])

    @Test func findsNowAndNext() {
        #expect(guide.programmes(channelID: "a").map(\.start) == [at(1000), at(2000), at(3000)])
        #expect(guide.now(channelID: "a", at: at(999)) == nil)
        #expect(guide.now(channelID: "a", at: at(1000))?.start == at(1000))
        #expect(guide.now(channelID: "a", at: at(1999))?.start == at(1000))
        #expect(guide.now(channelID: "a", at: at(2000))?.start == at(2000))
        #expect(guide.now(channelID: "a", at: at(4000)) == nil)
        #expect(guide.next(channelID: "a", after: at(999))?.start == at(1000))
        #expect(guide.next(channelID: "a", after: at(1000))?.start == at(2000))
        #expect(guide.next(channelID: "a", after: at(3500)) == nil)
        #expect(guide.now(channelID: "zz", at: at(1500)) == nil && guide.next(channelID: "zz", after: at(0)) == nil)
        #expect(guide.programmes(channelID: "a", from: at(1500), to: at(3000)).map(\.start) == [at(1000), at(2000)])
        #expect(guide.programmes(channelID: "a", from: at(2000), to: at(2001)).map(\.start) == [at(2000)])
        #expect(guide.programmes(channelID: "a", from: at(0), to: at(99_999)).count == 3)
        #expect(guide.programmes(channelID: "a", from: at(4000), to: at(5000)).isEmpty)
    }

    @Test func tidiesOverlapsDuplicatesAndEmptyProgrammes() {
        let messy = Guide(programmes: [
            programme("a", 0, 1500, "long"), programme("a", 1000, 2000, "first"), programme("a", 1000, 2000, "second"),
            programme("a", 2000, 2000, "empty"), programme("a", 2500, 2400, "backwards"),
        ])
        let list = messy.programmes(channelID: "a")
        #expect(list.map(\.title) == ["long", "second"])
        #expect(list[0].stop == at(1000))
    }

    @Test func keepsOnlyTheWindow() {
        let window = GuideWindow(now: at(10_000), past: 3600, ahead: 86_400)
        let guide = Guide(programmes: [
            programme("a", 0, 6400), programme("a", 6400, 6401), programme("a", 6401, 96_400),
            programme("a", 96_400, 99_000),
        ], window: window)
        #expect(guide.programmes(channelID: "a").map(\.start) == [at(6400), at(6401)])
    }

    @Test func aRefreshReplacesTheSpanItCoversAndKeepsTheRest() {
        let old = Guide(programmes: [programme("a", 0, 1000, "past"), programme("a", 1000, 2000, "old now"),
                                     programme("a", 2000, 3000, "old next"), programme("b", 0, 9000, "b")],
                        channels: [GuideChannel(id: "a", displayNames: ["A old"])])
        let fresh = Guide(programmes: [programme("a", 1000, 2500, "new now"), programme("a", 2500, 4000, "new next")],
                          channels: [GuideChannel(id: "a", displayNames: ["A new"])])
        let merged = old.merging(fresh)
        #expect(merged.programmes(channelID: "a").map(\.title) == ["past", "new now", "new next"])
        #expect(merged.programmes(channelID: "b").map(\.title) == ["b"])
        #expect(merged.channels["a"]?.displayNames == ["A new"])
        let trimmed = old.merging(fresh, window: GuideWindow(now: at(5000), past: 3600, ahead: 100))
        #expect(trimmed.programmes(channelID: "a").map(\.title) == ["new now", "new next"])
        #expect(trimmed.programmes(channelID: "b").map(\.title) == ["b"])
    }

    @Test func findsALineupChannelsProgrammeByItsTvgID() {
        let url = URL(string: "http://o.example/1.m3u8")!
        let matched = LineupChannel(number: 1, name: "A", url: url, guideID: "a")
        let unmatched = LineupChannel(number: 2, name: "B", url: url)
        #expect(guide.now(for: matched, at: at(1500))?.start == at(1000))
        #expect(guide.next(for: matched, after: at(1500))?.start == at(2000))
        #expect(guide.now(for: unmatched, at: at(1500)) == nil && guide.next(for: unmatched, after: at(0)) == nil)
    }

    @Test func progressRunsFromZeroToOne() {
        let show = programme("a", 1000, 2000)
        #expect(show.progress(at: at(500)) == 0 && show.progress(at: at(1250)) == 0.25 && show.progress(at: at(3000)) == 1)
        // In whole steps: the overlay is redrawn when the bar can move, not on every frame.
        let step = 1 / Programme.progressSteps
        let seconds = { Date(timeIntervalSince1970: $0) }
        #expect(show.progress(at: seconds(1250.5)) == 0.25 && show.progress(at: seconds(1251.5)) == 0.25 + step)
    }
}

@Suite struct GuideCollectorTests {
    func add(_ collector: inout GuideCollector, _ channel: String, _ start: Int, _ stop: Int?) {
        collector.add(programme(channel, start, stop ?? start), stopKnown: stop != nil)
    }

    @Test func aMissingStopIsTheNextStart() {
        var collector = GuideCollector(source: "t")
        add(&collector, "a", 2000, nil)
        add(&collector, "a", 1000, nil)
        add(&collector, "a", 3000, 3500)
        add(&collector, "a", 4000, nil)
        let guide = collector.finish()
        #expect(guide.programmes(channelID: "a").map(\.stop) == [at(2000), at(3000), at(3500)])
        #expect(collector.counts.unknownEnd == 1)
    }

    @Test func aDroppedProgrammeStillEndsTheOneBefore() {
        // now = 100_000: the window is 96_400 ..< 186_400.
        var collector = GuideCollector(source: "t", window: GuideWindow(now: at(100_000)))
        add(&collector, "a", 90_000, nil)        // ends at 95_000: before the window
        add(&collector, "a", 95_000, 96_000)     // dropped on arrival, but its start ends the one before
        add(&collector, "a", 99_000, nil)        // ends at 186_500, dropped on arrival
        add(&collector, "a", 186_500, 190_000)
        let guide = collector.finish()
        #expect(guide.programmes(channelID: "a").map { [$0.start, $0.stop] } == [[at(99_000), at(186_500)]])
        #expect(collector.counts.outsideWindow == 2)
    }

    @Test func keepsOnlyTheLineupsChannels() {
        var collector = GuideCollector(source: "t", wanted: GuideWanted(ids: ["a"]))
        collector.add(channel: GuideChannel(id: "a"))
        collector.add(channel: GuideChannel(id: "b"))
        add(&collector, "a", 0, 10)
        add(&collector, "b", 0, 10)
        let guide = collector.finish()
        #expect(guide.channelIDs == ["a"] && Array(guide.channels.keys) == ["a"])
        #expect(collector.counts.otherChannels == 1 && collector.counts.read == 2)
    }

    /// Whatever the order, the missing stops, the window and how often pending
    /// programmes are tidied, the collector gives what tidying the whole list
    /// at once and then trimming gives.
    @Test func streamingGivesWhatTheWholeListGives() async {
        let entry = zip(Gen.int(in: 0...3), Gen.int(in: 0...200), Gen.int(in: -3...30))
        await propertyCheck(count: 300, input: entry.array(of: 0...60), Gen.int(in: 0...220), Gen.int(in: 1...7)) {
            entries, now, interval in
            let window = GuideWindow(now: at(now * 60), past: 600, ahead: 3000)
            var streamed = GuideCollector(source: "t", window: window)
            streamed.compactionInterval = interval
            var whole = GuideCollector(source: "t")
            for (channel, start, length) in entries {
                // A length of 0 or less: no stop given.
                let stop = length > 0 ? (start + length) * 60 : nil
                add(&streamed, "c\(channel)", start * 60, stop)
                add(&whole, "c\(channel)", start * 60, stop)
            }
            #expect(streamed.finish() == whole.finish().trimmed(to: window))
        }
    }
}
