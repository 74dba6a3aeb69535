import Foundation
import Testing
@testable import ZapperPlayer

/// The wall clock's words agree with Foundation's formatters and calendar in the same time
/// zone (the process's), and a date from outside that cannot be placed is not a crash.
struct LocalTimeTests {
    @Test func clockAndDayNamesAgreeWithFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "HH:mm"
        let days = DateFormatter()
        days.locale = Locale(identifier: "en_GB")
        days.dateFormat = "EEE d MMM"
        let calendar = Calendar.current
        // Every 37 minutes over two years: both of each year's clock changes, where there are any.
        let today = Date(timeIntervalSince1970: 1_790_000_000)
        for step in stride(from: -365 * 24 * 60, to: 365 * 24 * 60, by: 37) {
            let date = today.addingTimeInterval(Double(step) * 60)
            #expect(LocalTime.clock(date) == formatter.string(from: date), "\(date)")
            let expected = calendar.isDate(date, inSameDayAs: today) ? "Today"
                : calendar.isDate(date, inSameDayAs: calendar.date(byAdding: .day, value: 1, to: today)!) ? "Tomorrow"
                : calendar.isDate(date, inSameDayAs: calendar.date(byAdding: .day, value: -1, to: today)!) ? "Yesterday"
                : days.string(from: date)
            #expect(LocalTime.dayName(date, today: today) == expected, "\(date)")
        }
    }

    @Test func aDateThatCannotBePlacedIsNotACrash() {
        for seconds in [Double.infinity, -Double.infinity, .nan, 1e300, -1e300, 9.3e15] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(LocalTime.clock(date) == "--:--")
            #expect(LocalTime.dayName(date, today: Date()) == "")
        }
    }
}
