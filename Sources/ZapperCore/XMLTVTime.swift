import Foundation

/// XMLTV's time stamps: `YYYYMMDDhhmmss ±hhmm`, as providers really write them.
///
/// Accepted: seconds, minutes or the hour left off (`202611210630 -0500`,
/// `2026112106`, even a bare date); an offset written `+0100`, `+01:00`, `+01`,
/// `Z`, `UTC` or `GMT`, with or without the space before it; no offset at all,
/// which XMLTV defines as UTC. Anything else is `nil`, never a guess.
public enum XMLTVTime {
    /// Seconds since 1970-01-01 00:00 UTC, or `nil` when the text is not an XMLTV time.
    public static func seconds(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }

        // The digits of the local time: 8 (date), 10, 12 or 14.
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let digits = bytes[digitsStart..<index]
        guard [8, 10, 12, 14].contains(digits.count) else { return nil }
        func field(_ offset: Int, _ length: Int) -> Int {
            guard offset + length <= digits.count else { return 0 }
            var value = 0
            for byte in digits[(digitsStart + offset)..<(digitsStart + offset + length)] {
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let year = field(0, 4), month = field(4, 2), day = field(6, 2)
        let hour = field(8, 2), minute = field(10, 2), second = field(12, 2)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }

        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        guard let offset = offsetSeconds(bytes[index...]) else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return local - Int64(offset)
    }

    /// The same as a `Date`.
    public static func date(_ text: some StringProtocol) -> Date? {
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

    /// The offset east of UTC in seconds; an empty rest means UTC.
    static func offsetSeconds(_ rest: ArraySlice<UInt8>) -> Int? {
        var text = Array(rest)
        while let last = text.last, last == 0x20 || last == 0x09 || last == 0x0D || last == 0x0A { text.removeLast() }
        if text.isEmpty { return 0 }
        let upper = String(decoding: text, as: UTF8.self).uppercased()
        if upper == "Z" || upper == "UTC" || upper == "GMT" { return 0 }
        guard text[0] == 0x2B || text[0] == 0x2D else { return nil } // + or -
        let sign = text[0] == 0x2D ? -1 : 1
        let body = text.dropFirst().filter { $0 != 0x3A } // "01:00" → "0100"
        guard text.dropFirst().filter({ $0 == 0x3A }).count <= 1,
              body.count == 2 || body.count == 4, body.allSatisfy(isDigit) else { return nil }
        let values = body.map { Int($0 - 0x30) }
        let hours = values[0] * 10 + values[1]
        let minutes = body.count == 4 ? values[2] * 10 + values[3] : 0
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
