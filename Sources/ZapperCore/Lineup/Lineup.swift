import Foundation

/// A channel of the lineup, as the viewer sees it.
public struct LineupChannel: Sendable, Equatable {
    public var number: Int
    public var name: String
    public var url: URL
    /// `tvg-id`: the key into the XMLTV guide.
    public var guideID: String?
    public var logo: URL?
    /// The groups it is in: `group-title` split at `;` as iptv-org's lists write several
    /// ("News;Sports"), blanks and repeats left out (at most 8); empty when it has none.
    public var groups: [String] {
        guard let group else { return [] }
        var seen = Set<String>()
        return Array(group.split(separator: ";").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }.prefix(8))
    }

    public var group: String?
    /// The channel's own content rating: `tvg-rating` (or `rating`) of its
    /// `#EXTINF`, or "18" for `censored="1"` (how providers mark adult channels).
    /// Checked against the parental limit with `RatingAge`.
    public var rating: String?
    /// Every attribute of the `#EXTINF` line, known or not.
    public var attributes: [String: String]
    /// Headers every request of this channel carries (its servers may refuse others).
    public var headers: RequestHeaders
    /// Where it was read from (1-based line of its `#EXTINF`, or of its URL).
    public var line: Int
    /// Hours to add to the guide's times for this channel (`tvg-shift`, else the
    /// configuration's `guide-shift`): a guide written for another time zone.
    public var guideShift: Double?
    /// The sources after the first (`url` and `headers`), in the lineup's order: entries
    /// merged into this one (`DuplicateMerge`), tried in turn when one fails.
    public var backups: [LineupSource]

    public init(number: Int, name: String, url: URL, guideID: String? = nil, logo: URL? = nil,
                group: String? = nil, rating: String? = nil, attributes: [String: String] = [:],
                headers: RequestHeaders = .none, line: Int = 0, backups: [LineupSource] = []) {
        self.number = number
        self.name = name
        self.url = url
        self.guideID = guideID
        self.logo = logo
        self.group = group
        self.rating = rating
        self.attributes = attributes
        self.headers = headers
        self.line = line
        self.backups = backups
    }

    /// A radio channel: sound, no picture (`radio="true"` on its `#EXTINF`, as Kodi's lineups mark them).
    public var isRadio: Bool {
        guard let value = attributes["radio"]?.trimmedSpaces.lowercased() else { return false }
        return value == "true" || value == "1" || value == "yes"
    }

    /// The programme of a multi-programme MPEG-TS to play: its service id (`#EXTVLCOPT:program=N`,
    /// or a `program` attribute), 1 to 65535; nil: the first with a picture.
    public var program: Int? {
        attributes["program"].flatMap { Int($0.trimmedSpaces) }.flatMap { (1...65_535).contains($0) ? $0 : nil }
    }

    /// The name the guide may know it by when its `tvg-id` is not there: `tvg-name`, else its name.
    public var guideName: String { attributes["tvg-name"].flatMap { $0.isEmpty ? nil : $0 } ?? name }

    /// Every source, the first one (`url`, `headers`) first.
    public var sources: [LineupSource] { [LineupSource(url: url, headers: headers, line: line)] + backups }

    /// This channel as it plays from source `index` (0: the first; out of range: the first):
    /// that source's URL and headers in `url` and `headers`.
    public func playing(source index: Int) -> LineupChannel {
        guard index > 0, index <= backups.count else { return self }
        var copy = self
        let source = backups[index - 1]
        copy.url = source.url
        copy.headers = source.headers
        copy.line = source.line
        return copy
    }
}

/// One place a channel plays from: its URL and the headers its server wants.
public struct LineupSource: Sendable, Equatable {
    public var url: URL
    public var headers: RequestHeaders
    /// The line of its entry in the lineup.
    public var line: Int

    public init(url: URL, headers: RequestHeaders = .none, line: Int = 0) {
        self.url = url
        self.headers = headers
        self.line = line
    }
}

/// Something wrong with one line of an input file; the rest still loads.
public struct InputProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String { "\(source):\(line): \(message)" }
}

public struct Lineup: Sendable, Equatable {
    /// Ordered by channel number.
    public var channels: [LineupChannel]
    /// The guides named by the header's `url-tvg` and `x-tvg-url` (each a comma-separated list), in order.
    public var guideURLs: [URL]
    /// Lines that were skipped or corrected, with the reason.
    public var problems: [InputProblem]
    /// The most streams a host serves at once, by its lower-cased name: a network tuner's
    /// tuners (an HDHomeRun's `TunerCount`). Hosts not listed have no limit of their own.
    public var tunerLimits: [String: Int]

    public init(channels: [LineupChannel], guideURLs: [URL] = [], problems: [InputProblem] = [], tunerLimits: [String: Int] = [:]) {
        self.channels = channels.sorted { $0.number < $1.number }
        self.guideURLs = guideURLs
        self.problems = problems
        self.tunerLimits = tunerLimits
    }

    public func channel(number: Int) -> LineupChannel? {
        channels.first { $0.number == number }
    }

    /// The configuration's `guide-shift` for every channel without a `tvg-shift` of its own.
    public mutating func shiftGuide(byDefault hours: Double) {
        for index in channels.indices where channels[index].guideShift == nil { channels[index].guideShift = hours }
    }
}

/// Only `http` and `https` may ever leave a lineup or a playlist: libavformat
/// would happily open `file:`, `concat:` or `subfile:`, and a hostile lineup
/// must not reach them.
public enum MediaURLPolicy {
    public static let allowedSchemes: Set<String> = ["http", "https"]

    /// The URL, if it is an absolute http(s) URL with a host, its scheme lower-cased (schemes
    /// are case-insensitive, RFC 3986 §3.1: `HTTP://` is http, never a local path further on);
    /// otherwise why not.
    public static func check(_ text: String) -> Result<URL, URLRejection> {
        let trimmed = text.trimmedSpaces
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else {
            return .failure(URLRejection(url: trimmed, reason: "is not a URL"))
        }
        guard allowedSchemes.contains(scheme) else {
            return .failure(URLRejection(url: trimmed, reason: "uses \(scheme):, only http and https are allowed"))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(URLRejection(url: trimmed, reason: "has no host"))
        }
        guard url.scheme != scheme else { return .success(url) }
        // Only the scheme's letters change: the rest of the text stays as it was sent.
        guard let colon = trimmed.firstIndex(of: ":"), let normalised = URL(string: scheme + trimmed[colon...]) else {
            return .failure(URLRejection(url: trimmed, reason: "is not a URL"))
        }
        return .success(normalised)
    }

    /// Resolves a reference found in a document fetched from `base` and checks it.
    public static func resolve(_ reference: String, against base: URL) -> Result<URL, URLRejection> {
        let trimmed = reference.trimmedSpaces
        guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL else {
            return .failure(URLRejection(url: trimmed, reason: "is not a URL"))
        }
        return check(url.absoluteString)
    }
}

public struct URLRejection: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var reason: String
    public var description: String { "\"\(url)\" \(reason)" }
}
