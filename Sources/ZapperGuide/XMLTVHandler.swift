import Foundation
import ZapperCore

/// The XML parser's listener for XMLTV: turns `<channel>` and `<programme>`
/// elements into `GuideChannel`s and `Programme`s as they end, and hands them
/// to a `GuideCollector`. Nothing but the element being read is kept here.
///
/// Elements XMLTV defines that the box does not show (`episode-num`, `icon`
/// inside a programme, `credits`, `video`, `audio`, `star-rating`, …) and
/// unknown ones are skipped. Of texts given in several languages (`<title
/// lang="sv">`, `<title lang="en">`), the first of `preferredLanguages` wins,
/// else the first given.
final class XMLTVHandler: XMLEvents {
    var collector: GuideCollector
    let preferredLanguages: [String]

    /// The first parse error: line, column, libxml2's code, and whether all input had been read by then.
    private(set) var parseError: (line: Int, column: Int, code: Int, afterEnd: Bool)?
    /// Set by the reader when the input has no more bytes (an error after that is a truncation).
    var inputEnded = false
    private(set) var rootName: String?
    private(set) var rootEnded = false
    /// True once the document cannot be read on: a parse error, or a root that is not `<tv>`.
    var failed: Bool { parseError != nil || (rootName != nil && rootName != "tv") }

    private var stack: [String] = []
    private var text = ""
    private var capturing = false
    private var textLanguage: String?

    private struct ProgrammeDraft {
        var line: Int
        var channel: String?
        var start: String?
        var stop: String?
        var titles: [(String?, String)] = []
        var subTitles: [(String?, String)] = []
        var descriptions: [(String?, String)] = []
        var categories: [(String?, String)] = []
        var ratings: [ProgrammeRating] = []
        var ratingSystem: String?
    }
    private var programme: ProgrammeDraft?
    private var channel: GuideChannel?

    init(collector: GuideCollector, preferredLanguages: [String]) {
        self.collector = collector
        self.preferredLanguages = preferredLanguages.map { $0.lowercased() }
    }

    // MARK: - XMLEvents

    func startElement(_ name: String, attributes: [String: String], parser: XMLPushParser) {
        // libxml2 recovers after an error and reads on; nothing after the first error is kept.
        guard parseError == nil else { return }
        defer { stack.append(name) }
        if stack.isEmpty {
            rootName = name
            if name != "tv" { parser.stop() }
            return
        }
        let parent = stack.last!
        switch (parent, name) {
        case ("tv", "channel"):
            channel = GuideChannel(id: attributes["id"] ?? "")
            if channel!.id.isEmpty { collector.problem(line: parser.lineNumber, "a <channel> without an id") }
        case ("channel", "display-name"):
            beginText(language: attributes["lang"])
        case ("channel", "icon"):
            if channel?.icon == nil, let source = attributes["src"] { channel?.icon = URL(string: source) }
        case ("tv", "programme"):
            programme = ProgrammeDraft(line: parser.lineNumber, channel: attributes["channel"],
                                       start: attributes["start"], stop: attributes["stop"])
        case ("programme", "title"), ("programme", "sub-title"), ("programme", "desc"), ("programme", "category"):
            beginText(language: attributes["lang"])
        case ("programme", "rating"):
            programme?.ratingSystem = attributes["system"].flatMap { $0.isEmpty ? nil : $0 }
        case ("rating", "value") where stack.count >= 2 && stack[stack.count - 2] == "programme":
            beginText(language: nil)
        default:
            break
        }
    }

    func characters(_ utf8: UnsafeBufferPointer<UInt8>) {
        if capturing, parseError == nil, text.utf8.count < GuideLimits.textCharacters * 4 {
            capture(String(decoding: utf8, as: UTF8.self))
        }
    }

    func endElement(_ name: String) {
        guard parseError == nil, !stack.isEmpty else { return }
        stack.removeLast()
        guard let parent = stack.last else {
            rootEnded = true
            return
        }
        switch (parent, name) {
        case ("channel", "display-name"):
            let value = endText()
            if !value.isEmpty, channel?.displayNames.count ?? 0 < GuideLimits.textsPerElement { channel?.displayNames.append(value) }
        case ("tv", "channel"):
            if let channel, !channel.id.isEmpty { collector.add(channel: channel) }
            channel = nil
        case ("programme", "title"):
            append(\.titles)
        case ("programme", "sub-title"):
            append(\.subTitles)
        case ("programme", "desc"):
            append(\.descriptions)
        case ("programme", "category"):
            append(\.categories)
        case ("rating", "value") where stack.count >= 2 && stack[stack.count - 2] == "programme":
            let value = endText()
            if !value.isEmpty, let system = programme.map(\.ratingSystem), programme?.ratings.count ?? 0 < GuideLimits.textsPerElement {
                programme?.ratings.append(ProgrammeRating(system: system, value: value))
            }
        case ("tv", "programme"):
            if let draft = programme { finishProgramme(draft) }
            programme = nil
        default:
            break
        }
    }

    func error(code: Int, line: Int, column: Int) {
        if parseError == nil { parseError = (line, column, code, inputEnded) }
    }

    // MARK: - Pieces

    /// Adds to the text being read, up to `GuideLimits.textCharacters` (a guide's text is
    /// not trusted to be small: one description may be gigabytes).
    private func capture(_ more: String) {
        let room = GuideLimits.textCharacters - text.count
        guard room > 0 else { return }
        text += more.count <= room ? more : String(more.prefix(room))
    }

    private func beginText(language: String?) {
        capturing = true
        text = ""
        textLanguage = language?.lowercased()
    }

    private func endText() -> String {
        capturing = false
        defer { text = "" }
        return Self.trimmed(text)
    }

    /// Without leading and trailing white space (most texts have none: no copy then).
    static func trimmed(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        if !isSpace(first) && !isSpace(last) { return text }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
              let end = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    private func append(_ field: WritableKeyPath<ProgrammeDraft, [(String?, String)]>) {
        let language = textLanguage
        let value = endText()
        if !value.isEmpty, programme?[keyPath: field].count ?? 0 < GuideLimits.textsPerElement {
            programme?[keyPath: field].append((language, value))
        }
    }

    /// The texts of the preferred language, else of the first language given.
    func choose(_ texts: [(String?, String)]) -> [String] {
        guard let first = texts.first else { return [] }
        if texts.count == 1 { return [first.1] }
        for language in preferredLanguages {
            let matching = texts.filter { $0.0.map { Self.matches($0, language) } ?? false }
            if !matching.isEmpty { return matching.map(\.1) }
        }
        return texts.filter { $0.0 == first.0 }.map(\.1)
    }

    /// `en` matches `en`, `en-GB` and `en_US`.
    static func matches(_ tag: String, _ language: String) -> Bool {
        tag == language || tag.hasPrefix(language + "-") || tag.hasPrefix(language + "_")
    }

    /// One programme's stop is mostly the next one's start: the last time read is kept.
    private var lastTime: (text: String, date: Date?)?

    private func time(_ text: String) -> Date? {
        if let lastTime, lastTime.text == text { return lastTime.date }
        let date = XMLTVTime.date(text)
        lastTime = (text, date)
        return date
    }

    private func finishProgramme(_ draft: ProgrammeDraft) {
        guard let channelID = draft.channel, !channelID.isEmpty else {
            collector.problem(line: draft.line, "a <programme> without a channel")
            return
        }
        guard let startText = draft.start else {
            collector.problem(line: draft.line, "a <programme> of \(channelID) without a start time")
            return
        }
        guard let start = time(startText) else {
            collector.problem(line: draft.line, "programme start \"\(startText)\" is not an XMLTV time")
            return
        }
        var stop: Date?
        if let stopText = draft.stop {
            if let parsed = time(stopText) {
                if parsed > start {
                    stop = parsed
                } else {
                    collector.problem(line: draft.line, "programme stop \"\(stopText)\" is not after its start; using the next start")
                }
            } else {
                collector.problem(line: draft.line, "programme stop \"\(stopText)\" is not an XMLTV time; using the next start")
            }
        }
        let programme = Programme(
            channelID: channelID, start: start, stop: stop ?? start,
            title: choose(draft.titles).first ?? "",
            subTitle: choose(draft.subTitles).first,
            description: choose(draft.descriptions).first,
            ratings: draft.ratings,
            categories: choose(draft.categories))
        collector.add(programme, stopKnown: stop != nil)
    }
}
