import Foundation
import Glibc

/// A moment as the box's wall clock shows it, in the C library's time zone (TZ, else
/// /etc/localtime): the guide's and the banner's "20:05" and "Wed 25 Nov".
///
/// Foundation's `DateFormatter` and `Calendar.current` would do the same through ICU: each
/// formatter loads locale data, and the process keeps ICU's pages resident for good (several
/// MB of a box's memory for two fixed English formats). The words here are English, as the
/// rest of the screen is.
struct LocalTime: Equatable {
    let hour: Int
    let minute: Int
    let weekday: Int  // 0 is Sunday
    let day: Int
    let month: Int  // 0 is January
    /// Days since 1970-01-01 on the wall clock: two moments share a day when these are equal.
    let dayNumber: Int

    /// Nil for a moment the C library cannot place (not finite, or beyond its years): a
    /// guide's dates come from outside.
    init?(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e13 else { return nil }
        var time = time_t(seconds)
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return nil }
        hour = Int(fields.tm_hour)
        minute = Int(fields.tm_min)
        weekday = Int(fields.tm_wday)
        day = Int(fields.tm_mday)
        month = Int(fields.tm_mon)
        let (wall, overflow) = Int(time).addingReportingOverflow(Int(fields.tm_gmtoff))
        guard !overflow else { return nil }
        dayNumber = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
    }

    /// "20:05"; "--:--" for a moment that cannot be placed.
    static func clock(_ date: Date) -> String {
        guard let time = LocalTime(date) else { return "--:--" }
        return two(time.hour) + ":" + two(time.minute)
    }

    /// "Wed 25 Nov"
    var dayAndMonth: String { "\(Self.weekdays[weekday]) \(day) \(Self.months[month])" }

    /// "Today", "Tomorrow", "Yesterday" or "Wed 25 Nov".
    static func dayName(_ date: Date, today: Date) -> String {
        guard let time = LocalTime(date), let now = LocalTime(today) else { return "" }
        switch time.dayNumber - now.dayNumber {
        case 0: return "Today"
        case 1: return "Tomorrow"
        case -1: return "Yesterday"
        default: return time.dayAndMonth
        }
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
