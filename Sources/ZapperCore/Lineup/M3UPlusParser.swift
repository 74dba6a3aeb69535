import Foundation

/// Reads M3U Plus lineups as real providers write them: a byte-order mark,
/// CRLF or CR line ends, attributes in any order with or without quotes,
/// commas inside quoted values, `#EXTVLCOPT`/`#KODIPROP` lines, `#EXTGRP`,
/// and missing or clashing `tvg-chno`. A bad entry is reported with its line
/// number and skipped; the good ones load.
public enum M3UPlusParser {
    /// `mergeDuplicates`: entries that are one channel (`DuplicateMerge`) become one with backup sources.
    public static func parse(_ text: String, source: String, mergeDuplicates: Bool = true) -> Lineup {
        var problems: [InputProblem] = []
        var unsaid = 0
        func problem(_ line: Int, _ message: String) {
            guard problems.count < LineupLimits.problems else {
                unsaid += 1
                return
            }
            let shown = message.count > 300 ? message.prefix(300) + "…" : Substring(message)
            problems.append(InputProblem(source: source, line: line, message: String(shown)))
        }

        let lines = Self.lines(text)

        var pending: Pending?
        // `#EXTVLCOPT:http-…` headers since the last stream URL (some lineups put them before #EXTINF).
        var options = RequestHeaders()
        var optionProblem: String?
        // `#EXTVLCOPT:program=N` since the last stream URL.
        var program: String?
        var guideURLs: [URL] = []
        var sawHeader = false
        var entries: [Entry] = []

        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingSpaces
            if line.isEmpty { continue }
            if line.hasPrefix("#EXTM3U") {
                sawHeader = true
                let attributes = parseAttributes(line.dropFirst("#EXTM3U".count))
                // Both names are in the wild, each may list several guides: all are read and merged.
                let listed = ["url-tvg", "x-tvg-url"].compactMap { attributes[$0] }.flatMap { $0.split(separator: ",") }
                for text in listed where !text.trimmingSpaces.isEmpty {
                    switch MediaURLPolicy.check(String(text)) {
                    case .success(let url):
                        if !guideURLs.contains(url), guideURLs.count < LineupLimits.guides { guideURLs.append(url) }
                    case .failure(let rejection): problem(number, "guide URL \(rejection)")
                    }
                }
                continue
            }
            if !sawHeader {
                problem(number, "no #EXTM3U header before the first entry; reading on")
                sawHeader = true
            }
            if line.hasPrefix("#EXTINF:") {
                if let previous = pending {
                    problem(previous.line, "#EXTINF \"\(previous.title)\" has no stream URL; skipped")
                }
                let (attributes, title) = splitExtinf(line.dropFirst("#EXTINF:".count))
                pending = Pending(line: number, attributes: attributes, title: title)
                continue
            }
            if line.hasPrefix("#EXTGRP:") {
                pending?.group = String(line.dropFirst("#EXTGRP:".count).trimmingSpaces)
                continue
            }
            if line.hasPrefix("#EXTVLCOPT:") {
                let option = line.dropFirst("#EXTVLCOPT:".count).split(separator: "=", maxSplits: 1).map(String.init)
                // VLC's programme of a multiplex (its service id), kept with the entry.
                if option.count == 2, option[0].trimmingCharacters(in: .whitespaces).lowercased() == "program" {
                    program = option[1].trimmingCharacters(in: .whitespaces)
                    continue
                }
                do {
                    if option.count == 2 { _ = try options.set(String(Substring(option[0]).trimmingSpaces), option[1]) }
                } catch {
                    optionProblem = "\(error)"
                }
                continue
            }
            if line.hasPrefix("#") { continue }  // #KODIPROP, comments, unknown tags

            var entry = pending ?? Pending(line: number, attributes: [:], title: "")
            if let program { entry.attributes["program"] = program }
            let lineOptions = options
            let lineProblem = optionProblem
            pending = nil
            options = RequestHeaders()
            optionProblem = nil
            program = nil
            guard entries.count < LineupLimits.channels else {
                problem(number, "more than \(LineupLimits.channels) channels; the rest of the lineup is skipped")
                break
            }
            let headers: RequestHeaders
            let address: String
            do {
                if let lineProblem { throw HeaderProblem(name: "#EXTVLCOPT", reason: lineProblem) }
                let (url, suffix) = try RequestHeaders.splitKodiSuffix(String(line))
                address = url
                headers = try attributeHeaders(entry.attributes).overlaid(by: lineOptions).overlaid(by: suffix)
            } catch {
                problem(number, "\(error); skipped")
                continue
            }
            switch MediaURLPolicy.check(address) {
            case .success(let url): entries.append((entry, url, headers))
            case .failure(let rejection): problem(number, "stream URL \(rejection); skipped")
            }
        }
        if let previous = pending {
            problem(previous.line, "#EXTINF \"\(previous.title)\" has no stream URL; skipped")
        }

        let channels = assemble(entries, mergeDuplicates: mergeDuplicates, problem: problem)
        if unsaid > 0 {
            problems.append(InputProblem(source: source, line: lines.count, message: "\(unsaid) more problems not listed"))
        }
        return Lineup(channels: channels, guideURLs: guideURLs, problems: problems.sorted { $0.line < $1.line })
    }

    /// An `#EXTINF` (or a bare URL line) waiting for its stream URL.
    struct Pending {
        var line: Int
        var attributes: [String: String]
        var title: String
        var group: String?

        /// The name the channel will have (before a number is known).
        var name: String { [title, attributes["tvg-name"] ?? ""].first { !$0.isEmpty } ?? "" }
    }

    typealias Entry = (pending: Pending, url: URL, headers: RequestHeaders)

    /// The headers an #EXTINF's attributes ask for (`user-agent`, `referrer`, `http-referrer`, …).
    static func attributeHeaders(_ attributes: [String: String]) throws(HeaderProblem) -> RequestHeaders {
        var headers = RequestHeaders()
        for key in ["user-agent", "http-user-agent", "referrer", "referer", "http-referrer", "http-referer", "origin", "http-origin"] {
            if let value = attributes[key] { _ = try headers.set(key, value) }
        }
        return headers
    }

    /// `censored="1"` (or `true`), which providers put on adult channels,
    /// reads as "18" whatever else the line says (the stricter reading wins);
    /// otherwise `tvg-rating` or `rating` when given.
    static func rating(_ attributes: [String: String]) -> String? {
        let censored = attributes["censored"]?.trimmedSpaces.lowercased()
        if censored == "1" || censored == "true" { return "18" }
        for key in ["tvg-rating", "rating"] {
            if let value = attributes[key]?.trimmedSpaces, !value.isEmpty { return value }
        }
        return nil
    }

    /// The lines of a lineup, without a byte-order mark; LF, CRLF or CR ends. Cut on the
    /// UTF-8 bytes (line ends are ASCII, so every cut is a character boundary).
    static func lines(_ text: String) -> [Substring] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        let bytes = body.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index = bytes.index(after: index)
                continue
            }
            lines.append(body[start..<index])
            index = bytes.index(after: index)
            if byte == UInt8(ascii: "\r"), index < bytes.endIndex, bytes[index] == UInt8(ascii: "\n") { index = bytes.index(after: index) }
            start = index
        }
        lines.append(body[start..<bytes.endIndex])
        return lines
    }

    /// Splits `-1 key="v, w" other=x,Title, with comma` into attributes and title:
    /// the title starts after the first comma outside quotes.
    static func splitExtinf(_ text: Substring) -> (attributes: [String: String], title: String) {
        var inQuotes = false
        let bytes = text.utf8
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if byte == UInt8(ascii: ","), !inQuotes {
                return (parseAttributes(text[..<index]), String(text[bytes.index(after: index)...].trimmingSpaces))
            }
        }
        return (parseAttributes(text), "")
    }

    /// `key="value"` or `key=value` pairs; keys are lower-cased. Text that is
    /// not a pair (such as the duration) is passed over.
    static func parseAttributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while let equals = rest.utf8.firstIndex(of: UInt8(ascii: "=")) {
            let head = rest[..<equals].utf8
            let keyEnd = head.lastIndex { !isSpace($0) }.map { head.index(after: $0) } ?? head.startIndex
            let keyStart = head[..<keyEnd].lastIndex(where: isSpace).map { head.index(after: $0) } ?? head.startIndex
            let key = rest[keyStart..<keyEnd].lowercased()
            rest = rest[rest.utf8.index(after: equals)...]
            let value: Substring
            if rest.utf8.first == UInt8(ascii: "\"") {
                rest = rest[rest.utf8.index(after: rest.utf8.startIndex)...]
                let close = rest.utf8.firstIndex(of: UInt8(ascii: "\"")) ?? rest.endIndex
                value = rest[..<close]
                rest = close < rest.endIndex ? rest[rest.utf8.index(after: close)...] : rest[close...]
            } else {
                let end = rest.utf8.firstIndex(where: isSpace) ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            if !key.isEmpty { result[key] = String(value) }
        }
        return result
    }
}
