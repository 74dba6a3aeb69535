/// Which lineup entries are one channel: the same `tvg-id` and the same name once
/// quality and status tags are set aside ("France 24 (720p)", "France 24 HD",
/// "France 24 [Not 24/7]" are one; "BBC One" and "BBC Two" stay two even when a
/// list gives them one id, as public lists do). Entries without a `tvg-id` are
/// never merged. The first entry leads; the others are its backup sources, in
/// the lineup's order.
public enum DuplicateMerge {
    /// What decides whether two entries are one channel.
    public struct Entry: Sendable, Equatable {
        public var guideID: String?
        public var name: String
        /// The entry's stream URL with its headers: an exact repeat of a source (the same URL
        /// and headers) adds nothing.
        public var source: LineupSource

        public init(guideID: String?, name: String, source: LineupSource) {
            self.guideID = guideID
            self.name = name
            self.source = source
        }
    }

    /// The outcome: each channel's entries (indices into the input, the leading one
    /// first), ordered by their leading entry; entries that repeat a source of their
    /// channel exactly (dropped); and entries past `LineupLimits.sourcesPerChannel`
    /// (kept as channels of their own, each in `channels`).
    public struct Result: Sendable, Equatable {
        public var channels: [[Int]]
        public var repeated: [Int]
        public var overflow: [Int]
    }

    /// Groups `entries`; with `enabled` false every entry is a channel of its own.
    public static func group(_ entries: [Entry], enabled: Bool = true,
                             limit: Int = LineupLimits.sourcesPerChannel) -> Result {
        var result = Result(channels: [], repeated: [], overflow: [])
        var open: [Key: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard enabled, let id = entry.guideID?.trimmedSpaces, !id.isEmpty else {
                result.channels.append([index])
                continue
            }
            let key = Key(id: id, name: comparableName(entry.name))
            guard let at = open[key] else {
                open[key] = result.channels.count
                result.channels.append([index])
                continue
            }
            if result.channels[at].contains(where: { entries[$0].source.url == entry.source.url && entries[$0].source.headers == entry.source.headers }) {
                result.repeated.append(index)
            } else if result.channels[at].count >= max(limit, 1) {
                result.overflow.append(index)
                result.channels.append([index])
            } else {
                result.channels[at].append(index)
            }
        }
        return result
    }

    private struct Key: Hashable {
        var id: String
        var name: String
    }

    /// Tags that say how a stream is delivered, not which channel it is.
    static let qualityTags: Set<String> = [
        "sd", "hd", "fhd", "uhd", "hdr", "4k", "8k", "hevc", "h265", "h.265", "h264", "h.264", "avc",
        "not 24/7", "geo-blocked", "geo blocked", "backup", "alt",
    ]

    /// `720p`, `1080i`, `2160p`, `576p50`.
    static func isResolution(_ tag: Substring) -> Bool {
        let digits = tag.prefix { $0.isASCII && $0.isNumber }
        guard (3...4).contains(digits.count) else { return false }
        let rest = tag.dropFirst(digits.count)
        guard let mark = rest.first, mark == "p" || mark == "i" else { return false }
        let rate = rest.dropFirst()
        return rate.count <= 3 && rate.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func isTag(_ text: Substring) -> Bool {
        let lowered = text.lowercased()
        return qualityTags.contains(lowered) || isResolution(Substring(lowered))
    }

    /// A bracketed part that holds only tags: "(720p)", "[Not 24/7]", "(1080p, HEVC)".
    static func isTagGroup(_ inner: Substring) -> Bool {
        let trimmed = inner.trimmingSpaces
        if isTag(trimmed) { return true }
        let parts = trimmed.split { $0 == "," || $0 == "/" || $0 == " " || $0 == "|" }
        return !parts.isEmpty && parts.allSatisfy(isTag)
    }

    /// The name compared: bracketed tag groups anywhere and tag words at the end set
    /// aside, spaces collapsed, case folded. Nothing else is touched; a name that is
    /// all tags ("HD") is kept as it is.
    public static func comparableName(_ name: String) -> String {
        var words: [Substring] = []
        var rest = Substring(name)
        while let open = rest.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            let closer: Character = rest[open] == "(" ? ")" : "]"
            words += rest[..<open].split(separator: " ")
            guard let close = rest[open...].firstIndex(of: closer) else {
                rest = rest[open...]
                break
            }
            let inner = rest[rest.index(after: open)..<close]
            if !isTagGroup(inner) { words.append(rest[open...close]) }
            rest = rest[rest.index(after: close)...]
        }
        words += rest.split(separator: " ")
        while words.count > 1, let last = words.last, isTag(last) { words.removeLast() }
        let folded = words.joined(separator: " ").lowercased()
        return folded.isEmpty ? name.lowercased() : folded
    }
}
