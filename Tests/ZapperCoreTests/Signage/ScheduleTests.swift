import Foundation
import Testing
import ZapperCore

/// Day-parting: which entries apply on which days and times (overnight, all day), what they
/// add up to, the changes a watcher reports, and daylight saving in the box's time zone.
@Suite struct ScheduleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func date(_ text: String, in zone: TimeZone) -> Date {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = zone
        return formatter.date(from: text)!
    }

    @Test func daysTimesAndOvernight() throws {
        #expect(ScheduleEntry.days(["weekdays"]) == Set(2...6))
        #expect(ScheduleEntry.days(["Sat", "sunday"]) == [7, 1])
        #expect(ScheduleEntry.days(["someday"]) == nil && ScheduleEntry.days(["mo"]) == nil && ScheduleEntry.days([]) == nil)
        #expect(ScheduleEntry.minutes("07:30") == 450 && ScheduleEntry.minutes("24:00") == nil && ScheduleEntry.minutes("7:5") == nil)
        let night = ScheduleEntry(days: [6], from: 23 * 60, to: 6 * 60, standby: true)  // Friday 23:00 to Saturday 06:00
        #expect(night.applies(weekday: 6, minute: 23 * 60))
        #expect(night.applies(weekday: 7, minute: 5 * 60 + 59))
        #expect(!night.applies(weekday: 7, minute: 6 * 60) && !night.applies(weekday: 6, minute: 5 * 60))
        let allDay = ScheduleEntry(days: [1], from: 0, to: 0)
        #expect(allDay.applies(weekday: 1, minute: 0) && allDay.applies(weekday: 1, minute: 1439) && !allDay.applies(weekday: 2, minute: 0))
    }

    @Test func theWatcherReportsEdgesAndWhatApplies() throws {
        let entries = [ScheduleEntry(days: Set(1...7), from: 7 * 60, to: 9 * 60, channel: 3, volume: 40),
                       ScheduleEntry(days: Set(1...7), from: 8 * 60, to: 10 * 60, channel: 5, muted: true, panel: false)]
        var watcher = ScheduleWatcher(entries: entries, timeZone: Self.berlin)
        let startChange = watcher.look(at: Self.date("2026-11-24 08:15", in: Self.berlin))
        let start = try #require(startChange)
        #expect(start.atStart && start.began == [0, 1] && start.ended == [])
        #expect(start.state.channel == 5 && start.state.volume == 40 && start.state.muted == true && start.state.panel == false)
        let looked1 = watcher.look(at: Self.date("2026-11-24 08:59", in: Self.berlin))
        #expect(looked1 == nil)
        let nineChange = watcher.look(at: Self.date("2026-11-24 09:00", in: Self.berlin))
        let nine = try #require(nineChange)
        #expect(!nine.atStart && nine.ended == [0] && nine.began == [] && nine.state.volume == nil)
        let tenChange = watcher.look(at: Self.date("2026-11-24 10:00", in: Self.berlin))
        let ten = try #require(tenChange)
        #expect(ten.ended == [1] && ten.state == ScheduleState())
    }

    /// On 2026-03-29 Berlin's clocks go from 02:00 to 03:00: an entry from 02:30 begins at 03:00.
    @Test func anEntryInTheSkippedHourBeginsWhenTheClockJumps() throws {
        let entry = ScheduleEntry(days: [1], from: 2 * 60 + 30, to: 4 * 60, standby: true)
        var watcher = ScheduleWatcher(entries: [entry], timeZone: Self.berlin)
        let utc = TimeZone(identifier: "UTC")!
        // 00:59 UTC is 01:59 CET; 01:00 UTC is 03:00 CEST.
        let looked2 = watcher.look(at: Self.date("2026-03-29 00:59", in: utc))
        #expect(looked2?.state.standby == false)
        let jumpChange = watcher.look(at: Self.date("2026-03-29 01:00", in: utc))
        let jump = try #require(jumpChange)
        #expect(jump.began == [0] && jump.state.standby)
        let looked3 = watcher.look(at: Self.date("2026-03-29 02:00", in: utc))
        #expect(looked3?.ended == [0], "04:00 CEST")
    }
}
