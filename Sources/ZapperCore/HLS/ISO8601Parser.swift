import Foundation

/// Dates as HLS servers write them: `2026-11-21T05:11:02Z`, with or without
/// fractional seconds, with `Z`, `+hh:mm`, `+hhmm` or `+hh`.
enum ISO8601Parser {
    static func date(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard scalars.count >= 19, scalars[4] == 45, scalars[7] == 45, scalars[10] == 84 || scalars[10] == 116 || scalars[10] == 32,
              scalars[13] == 58, scalars[16] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < scalars.count, scalars[index] == 46 || scalars[index] == 44 {
            index += 1
            var scale = 0.1
            let start = index
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                fraction += Double(scalars[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        if index < scalars.count {
            let sign = scalars[index]
            if sign == 90 || sign == 122 {  // Z
                index += 1
            } else if sign == 43 || sign == 45 {
                let rest = String(decoding: scalars[(index + 1)...], as: UTF8.self).replacingOccurrences(of: ":", with: "")
                guard rest.count == 2 || rest.count == 4, let hh = Int(rest.prefix(2)), let mm = Int(rest.dropFirst(2).isEmpty ? "0" : String(rest.dropFirst(2))),
                      hh < 24, mm < 60 else { return nil }
                offsetSeconds = (hh * 3600 + mm * 60) * (sign == 43 ? 1 : -1)
                index = scalars.count
            } else {
                return nil
            }
        }
        guard index == scalars.count else { return nil }
        let seconds = XMLTVTime.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds - offsetSeconds) + fraction)
    }
}
