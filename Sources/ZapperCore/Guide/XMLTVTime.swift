import Foundation

/// XMLTV's time stamps: `YYYYMMDDhhmmss ±hhmm`, as providers really write them.
///
/// Accepted: seconds, minutes or the hour left off (`202611210630 -0500`,
/// `2026112106`, even a bare date); an offset written `+0100`, `+01:00`, `+01`,
/// `Z`, `UTC` or `GMT`, with or without the space before it; no offset at all,
/// which XMLTV defines as UTC. Anything else is `nil`, never a guess.
public enum XMLTVTime {
    /// Seconds since 1970-01-01 00:00 UTC, or `nil` when the text is not an XMLTV time.
    public static func seconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { seconds(utf8: $0) }
    }

    public static func seconds(_ text: Substring) -> Int64? {
        seconds(String(text))
    }

    /// The parse itself, over the UTF-8 bytes (no allocation: a guide has hundreds of thousands of these).
    static func seconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }

        // The digits of the local time: 8 (date), 10, 12 or 14.
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let count = index - digitsStart
        guard count == 8 || count == 10 || count == 12 || count == 14 else { return nil }
        func field(_ offset: Int, _ length: Int) -> Int {
            guard offset + length <= count else { return 0 }
            var value = 0
            for position in (digitsStart + offset)..<(digitsStart + offset + length) {
                value = value * 10 + Int(bytes[position] &- 0x30)
            }
            return value
        }
        let year = field(0, 4), month = field(4, 2), day = field(6, 2)
        let hour = field(8, 2), minute = field(10, 2), second = field(12, 2)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }

        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        var end = bytes.count
        while end > index, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A {
            end -= 1
        }
        guard let offset = offsetSeconds(UnsafeBufferPointer(rebasing: bytes[index..<end])) else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return local - Int64(offset)
    }

    /// The same as a `Date`.
    public static func date(_ text: String) -> Date? {
        seconds(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// `YYYYMMDDhhmmss +0000` for a time, the form XMLTV writers use.
    public static func format(seconds: Int64) -> String {
        let days = Int(seconds.floorDivided(by: 86_400))
        let inDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civil(daysSinceEpoch: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return yearText + two(month) + two(day) + two(inDay / 3600) + two(inDay / 60 % 60) + two(inDay % 60) + " +0000"
    }

    // MARK: - Pieces

    /// The offset east of UTC in seconds (`+0100`, `+01:00`, `+01`, `Z`, `UTC`, `GMT`); nothing means UTC.
    static func offsetSeconds(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        if text.isEmpty { return 0 }
        guard text[0] == 0x2B || text[0] == 0x2D else { // not + or -: only Z, UTC, GMT
            let upper = String(decoding: text, as: UTF8.self).uppercased()
            return upper == "Z" || upper == "UTC" || upper == "GMT" ? 0 : nil
        }
        let sign = text[0] == 0x2D ? -1 : 1
        func digit(_ position: Int) -> Int? { isDigit(text[position]) ? Int(text[position] - 0x30) : nil }
        let hoursAt = 1
        let minutesAt: Int?
        switch text.count {
        case 3: minutesAt = nil                                  // +01
        case 5: minutesAt = 3                                    // +0100
        case 6 where text[3] == 0x3A: minutesAt = 4              // +01:00
        default: return nil
        }
        guard let h1 = digit(hoursAt), let h2 = digit(hoursAt + 1) else { return nil }
        var minutes = 0
        if let minutesAt {
            guard let m1 = digit(minutesAt), let m2 = digit(minutesAt + 1) else { return nil }
            minutes = m1 * 10 + m2
        }
        let hours = h1 * 10 + h2
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch`.
    static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
