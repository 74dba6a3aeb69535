import Foundation
import Testing
import ZapperCore

/// Reminders: set and cleared by the same OK, due a minute before the start until a minute
/// after, soonest first, bounded, and kept in the state as whole seconds.
@Suite struct RemindersTests {
    static let channel = LineupChannel(number: 5, name: "Five", url: URL(string: "http://example.net/5.m3u8")!, guideID: "five")
    static let start = Date(timeIntervalSince1970: 1_795_550_400)

    @Test func setClearDueAndOver() throws {
        var reminders = Reminders()
        let news = Programme(channelID: "five", start: Self.start, stop: Self.start + 1800, title: "News")
        let set = reminders.toggle(channel: Self.channel, news)
        #expect(set)
        #expect(reminders.has(channel: Self.channel, start: Self.start))
        #expect(reminders.due(at: Self.start - 61) == nil)
        #expect(reminders.due(at: Self.start - 60)?.title == "News")
        #expect(reminders.due(at: Self.start + 59)?.title == "News")
        let early = reminders.removeOver(at: Self.start + 59)
        #expect(early.isEmpty)
        let over = reminders.removeOver(at: Self.start + 60)
        #expect(over.map(\.title) == ["News"])
        #expect(reminders.entries.isEmpty)
        let again = reminders.toggle(channel: Self.channel, news), cleared = reminders.toggle(channel: Self.channel, news)
        #expect(again && !cleared, "OK again clears it")
    }

    @Test func boundedSoonestFirstAndKeptAsSeconds() throws {
        var reminders = Reminders()
        for index in (0..<100).reversed() {
            reminders.toggle(channel: Self.channel, Programme(channelID: "five", start: Self.start + Double(index) * 3600,
                                                              stop: Self.start + Double(index) * 3600 + 60, title: "P\(index)"))
        }
        #expect(reminders.entries.count == Reminders.limit)
        #expect(reminders.entries.first?.title == "P0" && reminders.entries.last?.title == "P63")
        var state = ZapperState()
        state.reminders = reminders.entries
        let text = String(decoding: try state.encoded(), as: UTF8.self)
        #expect(text.contains("\"start\" : 1795550400"), "whole seconds since 1970")
        #expect(try ZapperState.decode(state.encoded()).reminders == reminders.entries)
        let hostile = Data(#"{"reminders": [{"channel": "x", "start": -5, "title": "t"}], "volume": 30}"#.utf8)
        let read = try ZapperState.decode(hostile)
        #expect(read.reminders.isEmpty && read.volume == 30, "a bad reminder is dropped, not the state")
    }
}
