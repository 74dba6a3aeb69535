import Foundation

/// What `zapper check` found of one channel: whether it plays, what its URL
/// answers with, and why not when it does not.
public struct ChannelCheck: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case hlsMaster = "hls-master"
        case hlsMedia = "hls-media"
        case mpegTS = "mpeg-ts"
        case other
        /// No answer to tell by.
        case unknown
    }

    public var number: Int
    public var name: String
    /// The channel's stream URL (its first source): what `hide-dead-channels` knows it by.
    public var url: String
    public var ok: Bool
    public var kind: Kind
    /// Variants of a master playlist.
    public var variants: Int?
    /// Codecs the master lists (RFC 6381 strings), or the decoder's names when it lists none.
    public var codecs: [String]
    /// The first picture decoded, `WIDTHxHEIGHT`.
    public var picture: String?
    /// The failure's kind as the event log names it (`http-404`, `timeout`, …) and its words.
    public var failure: String?
    public var reason: String?
    /// From the first request to the first picture (or the failure).
    public var milliseconds: Int
    /// The channel's sources (merged entries), and which one gave the picture (1-based).
    public var sources = 1
    public var source: Int?

    public init(number: Int, name: String, url: String, ok: Bool, kind: Kind, variants: Int? = nil, codecs: [String] = [],
                picture: String? = nil, failure: String? = nil, reason: String? = nil, milliseconds: Int) {
        self.number = number
        self.name = name
        self.url = url
        self.ok = ok
        self.kind = kind
        self.variants = variants
        self.codecs = codecs
        self.picture = picture
        self.failure = failure
        self.reason = reason
        self.milliseconds = milliseconds
    }
}

/// The whole check of a lineup: its bad lines, every channel's result, a table for
/// a person and JSON for a program (and for the panel, which may hide the dead).
public struct LineupCheckReport: Sendable, Equatable, Codable {
    public var lineup: String
    /// When it ran (seconds since 1970).
    public var checkedAt: Double
    public var problems: [String]
    public var channels: [ChannelCheck]

    public init(lineup: String, checkedAt: Double, problems: [String], channels: [ChannelCheck]) {
        self.lineup = lineup
        self.checkedAt = checkedAt
        self.problems = problems
        self.channels = channels.sorted { $0.number < $1.number }
    }

    /// Its name in the state directory.
    public static let fileName = "check.json"

    public var failed: [ChannelCheck] { channels.filter { !$0.ok } }

    /// The URLs of channels found dead (what `hide-dead-channels` hides).
    public var deadURLs: Set<String> { Set(failed.map(\.url)) }

    /// One line a channel, columns aligned; names cut at `nameWidth`.
    public func table(nameWidth: Int = 28) -> String {
        func cut(_ text: String, _ width: Int) -> String {
            text.count <= width ? text.padding(toLength: width, withPad: " ", startingAt: 0) : String(text.prefix(width - 1)) + "…"
        }
        var lines = ["   #  " + cut("name", nameWidth) + "  result  kind        variants  picture    ms      codecs / reason"]
        for channel in channels {
            let number = String(channel.number)
            let from = channel.sources > 1 ? "source \(channel.source.map(String.init) ?? "-") of \(channel.sources): " : ""
            let detail = from + (channel.ok ? channel.codecs.joined(separator: ",") : "\(channel.failure ?? "failed"): \(channel.reason ?? "")")
            lines.append(String(repeating: " ", count: max(0, 4 - number.count)) + number + "  " + cut(channel.name, nameWidth)
                         + "  " + cut(channel.ok ? "ok" : "FAILED", 6) + "  " + cut(channel.kind.rawValue, 10)
                         + "  " + cut(channel.variants.map(String.init) ?? "-", 8) + "  " + cut(channel.picture ?? "-", 9)
                         + "  " + cut(String(channel.milliseconds), 6) + "  " + detail)
        }
        return lines.joined(separator: "\n")
    }

    /// "812 of 900 channels play; 88 failed: 41 http-404, 30 timeout, …; 3 bad lines"
    public var summary: String {
        var counts: [String: Int] = [:]
        for channel in failed { counts[channel.failure ?? "failed", default: 0] += 1 }
        let byKind = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        var text = "\(channels.count - failed.count) of \(channels.count) channels play"
        if !failed.isEmpty { text += "; \(failed.count) failed: " + byKind.joined(separator: ", ") }
        if !problems.isEmpty { text += "; \(problems.count) bad line\(problems.count == 1 ? "" : "s") in the lineup" }
        return text
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// A report written by `json()`; nil when the bytes are not one (a bad file hides nothing).
    public static func read(_ data: Data) -> LineupCheckReport? {
        try? JSONDecoder().decode(LineupCheckReport.self, from: data)
    }
}
