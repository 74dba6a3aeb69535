import Foundation

/// One WebVTT cue, its text reduced to plain text for drawing.
public struct WebVTTCue: Sendable, Equatable {
    public var id: String?
    /// Seconds: on the MPEG-TS timeline (90 kHz PTS modulo 2^33, as seconds)
    /// when the document has an X-TIMESTAMP-MAP, else the file's own times.
    public var start: Double
    public var end: Double
    /// Cue settings such as `line:85%` or `align:center`, by name.
    public var settings: [String: String]
    /// Plain text: tags removed, entities decoded, lines joined with "\n".
    public var text: String
    /// The line of the timing line, counting from 1.
    public var line: Int

    public init(id: String? = nil, start: Double, end: Double, settings: [String: String] = [:], text: String, line: Int) {
        self.id = id
        self.start = start
        self.end = end
        self.settings = settings
        self.text = text
        self.line = line
    }
}

/// HLS's `X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<cue time>`: which PTS the
/// local time stands for.
public struct WebVTTTimestampMap: Sendable, Equatable {
    public var mpegts: Int64
    public var local: Double
}

/// A cue that was skipped, and why.
public struct WebVTTProblem: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}

/// A file that is not WebVTT at all (or whose timeline cannot be known).
public struct WebVTTParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "WebVTT line \(line): \(reason)" }
}

public struct WebVTTDocument: Sendable, Equatable {
    public var timestampMap: WebVTTTimestampMap?
    public var cues: [WebVTTCue] = []
    public var problems: [WebVTTProblem] = []
}

/// Reads WebVTT as HLS subtitle segments carry it: the header with an
/// optional X-TIMESTAMP-MAP, cues with ids and settings, NOTE, STYLE and
/// REGION blocks (skipped). A malformed cue is skipped and listed in
/// `problems`; a file that does not start with `WEBVTT` is an error.
public enum WebVTTParser {
    /// 2^33: MPEG-TS timestamps wrap here.
    public static let ptsWrap: Int64 = 1 << 33
    public static let ptsRate = 90_000.0

    public static func parse(_ text: String) throws(WebVTTParseError) -> WebVTTDocument {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let header = lines.first, header.hasPrefix("WEBVTT"),
              header.count == 6 || header.dropFirst(6).first == " " || header.dropFirst(6).first == "\t" else {
            throw WebVTTParseError(line: 1, reason: "not WebVTT: the first line is not \"WEBVTT\"")
        }
        if let bad = lines.firstIndex(where: { $0.contains("\u{0}") }) {
            throw WebVTTParseError(line: bad + 1, reason: "a NUL character: not a text file")
        }
        var document = WebVTTDocument()
        var index = 1
        // The header runs to the first blank line.
        while index < lines.count, !lines[index].isBlank {
            let line = lines[index]
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                guard let map = timestampMap(line.dropFirst("X-TIMESTAMP-MAP=".count)) else {
                    throw WebVTTParseError(line: index + 1, reason: "X-TIMESTAMP-MAP \"\(line)\" is not MPEGTS:<ticks>,LOCAL:<time>")
                }
                document.timestampMap = map
            } else if line.contains("-->") {
                break  // a cue right after the header, without the blank line
            }
            index += 1
        }

        while index < lines.count {
            if lines[index].isBlank {
                index += 1
                continue
            }
            let blockStart = index
            let first = lines[index]
            if !first.contains("-->"), ["NOTE", "STYLE", "REGION"].contains(where: { first.startsWithKeyword($0) }) {
                while index < lines.count, !lines[index].isBlank { index += 1 }
                continue
            }
            var id: String?
            if !first.contains("-->") {
                id = String(first)
                index += 1
                guard index < lines.count, lines[index].contains("-->") else {
                    document.problems.append(WebVTTProblem(line: blockStart + 1, reason: "\"\(first)\" is followed by no timing line; block skipped"))
                    while index < lines.count, !lines[index].isBlank { index += 1 }
                    continue
                }
            }
            let timingLine = index + 1
            let timing = lines[index]
            index += 1
            var textLines: [Substring] = []
            // The text runs to a blank line, or to a line that starts the next cue.
            while index < lines.count, !lines[index].isBlank, !lines[index].contains("-->") {
                textLines.append(lines[index])
                index += 1
            }
            switch cueTiming(timing) {
            case .failure(let reason):
                document.problems.append(WebVTTProblem(line: timingLine, reason: "\(reason); cue skipped"))
            case .success(let (start, end, settings)):
                guard end > start else {
                    document.problems.append(WebVTTProblem(line: timingLine, reason: "the cue ends before it starts; cue skipped"))
                    continue
                }
                let text = textLines.map { plainText($0) }.joined(separator: "\n")
                document.cues.append(WebVTTCue(id: id, start: onTimeline(start, document.timestampMap),
                                               end: onTimeline(end, document.timestampMap),
                                               settings: settings, text: text, line: timingLine))
            }
        }
        return document
    }

    /// A local cue time placed on the MPEG-TS timeline (seconds, modulo 2^33 ticks).
    static func onTimeline(_ local: Double, _ map: WebVTTTimestampMap?) -> Double {
        guard let map else { return local }
        let ticks = map.mpegts + Int64(((local - map.local) * ptsRate).rounded())
        let wrapped = ((ticks % ptsWrap) + ptsWrap) % ptsWrap
        return Double(wrapped) / ptsRate
    }

    /// The time in seconds that is `seconds` modulo the 2^33-tick wrap and
    /// nearest `reference`: a cue time moved next to a PTS that the demuxer
    /// has already unwrapped past 2^33 (or that has wrapped to small values).
    public static func unwrap(_ seconds: Double, near reference: Double) -> Double {
        let period = Double(ptsWrap) / ptsRate
        return seconds + ((reference - seconds) / period).rounded() * period
    }

    /// `hh:mm:ss.ttt` (hours of two or more digits) or `mm:ss.ttt`.
    public static func timestamp(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let last = parts.last else { return nil }
        let secondParts = last.split(separator: ".", omittingEmptySubsequences: false)
        guard secondParts.count == 2, secondParts[0].count == 2, secondParts[1].count == 3,
              let seconds = Int(secondParts[0]), let millis = Int(secondParts[1]),
              secondParts[0].allSatisfy(\.isASCIIDigit), secondParts[1].allSatisfy(\.isASCIIDigit), seconds < 60 else { return nil }
        let minutesText = parts[parts.count - 2]
        guard minutesText.count == 2, minutesText.allSatisfy(\.isASCIIDigit), let minutes = Int(minutesText), minutes < 60 else { return nil }
        var hours = 0
        if parts.count == 3 {
            // At most nine digits of hours (over 100,000 years): the seconds cannot overflow.
            guard (2...9).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit), let value = Int(parts[0]) else { return nil }
            hours = value
        }
        return Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
    }

    static func timestampMap(_ value: Substring) -> WebVTTTimestampMap? {
        var mpegts: Int64?
        var local: Double?
        for field in value.split(separator: ",") {
            let field = field.trimmingSpaces
            if field.hasPrefix("MPEGTS:") {
                mpegts = Int64(field.dropFirst("MPEGTS:".count))
            } else if field.hasPrefix("LOCAL:") {
                local = timestamp(field.dropFirst("LOCAL:".count))
            } else {
                return nil
            }
        }
        // MPEGTS is a 33-bit PTS: anything larger is not one (and would overflow once a cue is placed).
        guard let mpegts, (0..<ptsWrap).contains(mpegts), let local else { return nil }
        return WebVTTTimestampMap(mpegts: mpegts, local: local)
    }

    static func cueTiming(_ line: Substring) -> Result<(Double, Double, [String: String]), CueTimingError> {
        guard let arrow = line.range(of: "-->") else { return .failure(CueTimingError("no \"-->\"")) }
        let startText = line[..<arrow.lowerBound].trimmingSpaces
        let rest = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let start = timestamp(startText) else { return .failure(CueTimingError("start time \"\(startText)\" is not hh:mm:ss.ttt or mm:ss.ttt")) }
        guard let endText = rest.first else { return .failure(CueTimingError("no end time")) }
        guard let end = timestamp(endText) else { return .failure(CueTimingError("end time \"\(endText)\" is not hh:mm:ss.ttt or mm:ss.ttt")) }
        var settings: [String: String] = [:]
        for setting in rest.dropFirst() {
            // A setting without a colon is ignored, as the spec says.
            guard let colon = setting.firstIndex(of: ":"), colon != setting.startIndex else { continue }
            settings[String(setting[..<colon])] = String(setting[setting.index(after: colon)...])
        }
        return .success((start, end, settings))
    }

    struct CueTimingError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Cue text as plain text: tags (`<i>`, `<b>`, `<c.class>`, `<v Name>`,
    /// `<ruby>`, inline timestamps) removed, then character references decoded.
    public static func plainText(_ line: Substring) -> String {
        var stripped = ""
        var inTag = false
        for character in line {
            if inTag {
                if character == ">" { inTag = false }
            } else if character == "<" {
                inTag = true
            } else {
                stripped.append(character)
            }
        }
        return decodeEntities(stripped)
    }

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{00A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
        "quot": "\"", "apos": "'",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";"), let decoded = entity(after[..<semicolon]) {
                result += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    static func entity(_ name: Substring) -> String? {
        if let named = namedEntities[String(name)] { return named }
        guard name.hasPrefix("#") else { return nil }
        let number = name.dropFirst()
        let value = number.hasPrefix("x") || number.hasPrefix("X") ? UInt32(number.dropFirst(), radix: 16) : UInt32(number)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}

fileprivate extension Substring {
    var isBlank: Bool { allSatisfy { $0 == " " || $0 == "\t" } }

    /// The line is `word` alone or followed by a space, a tab.
    func startsWithKeyword(_ word: String) -> Bool {
        hasPrefix(word) && (count == word.count || dropFirst(word.count).first == " " || dropFirst(word.count).first == "\t")
    }
}

fileprivate extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
