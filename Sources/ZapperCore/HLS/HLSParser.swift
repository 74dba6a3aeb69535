import Foundation

/// Parses master and media playlists (RFC 8216 / 8216bis). Malformed input is
/// rejected with its line and the reason; unknown tags are ignored. Every
/// URI is resolved against the playlist's own URL and must be http(s).
/// EXT-X-DEFINE variables are substituted (`HLSVariables`).
public enum HLSParser {
    /// - Parameters:
    ///   - url: the URL that finally answered (after redirects): URIs resolve
    ///     against it, and EXT-X-DEFINE QUERYPARAM reads its query.
    ///   - masterVariables: for a media playlist loaded from a master playlist,
    ///     that master's variables (`HLSMasterPlaylist.variables`), which
    ///     EXT-X-DEFINE IMPORT takes; nil: not loaded from a master.
    public static func parse(_ text: String, url: URL, masterVariables: HLSVariables? = nil) throws(HLSParseError) -> HLSPlaylist {
        var state = State(source: url.absoluteString, base: url, imports: masterVariables)
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard let first = lines.firstIndex(where: { !$0.trimmingSpaces.isEmpty }),
              lines[first].trimmingSpaces == "#EXTM3U" else {
            throw HLSParseError(source: state.source, line: 1, reason: "not an HLS playlist: the first line is not #EXTM3U")
        }
        for index in lines.indices.dropFirst(first + 1) {
            let line = lines[index].trimmingSpaces
            if line.isEmpty { continue }
            state.line = index + 1
            do {
                try state.read(line)
            } catch let error as AttributeError {
                throw HLSParseError(source: state.source, line: state.line, reason: error.reason)
            } catch let error as HLSParseError {
                throw error
            } catch {
                throw HLSParseError(source: state.source, line: state.line, reason: "\(error)")
            }
        }
        return try state.finish(lastLine: state.line)
    }

    struct State {
        let source: String
        let base: URL
        let imports: HLSVariables?
        var line = 0
        var variables = HLSVariables()
        /// The first EXT-X-DEFINE IMPORT: a master playlist must have none.
        var importLine: Int?

        var master = HLSMasterPlaylist()
        var media = HLSMediaPlaylist()
        var kind: Kind?
        enum Kind { case master, media }

        // Media playlist, per segment.
        var sawTargetDuration = false
        var pendingInfo: (duration: Double, title: String?, line: Int)?
        var pendingRange: (length: Int, offset: Int?)?
        var pendingDiscontinuity = false
        var pendingDate: Date?
        var pendingGap = false
        /// Cue tags before the next segment (`HLSParser+Cues`).
        var pendingCues: [HLSCue] = []
        var key: HLSKey?
        var initSection: HLSInitSection?
        var discontinuities: Int64 = 0

        // Master playlist.
        var pendingVariant: (variant: HLSVariant, line: Int)?

        init(source: String, base: URL, imports: HLSVariables?) {
            self.source = source
            self.base = base
            self.imports = imports
        }

        func fail(_ reason: String) -> HLSParseError {
            HLSParseError(source: source, line: line, reason: reason)
        }

        mutating func be(_ wanted: Kind, _ tag: Substring) throws(HLSParseError) {
            if let kind, kind != wanted {
                throw fail("\(tag) in a \(kind == .master ? "master" : "media") playlist: it mixes master and media tags")
            }
            if wanted == .master, let importLine {
                throw HLSParseError(source: source, line: importLine, reason: "EXT-X-DEFINE IMPORT in a master playlist (only media playlists import)")
            }
            kind = wanted
        }

        /// An attribute list, its variables substituted.
        func attributes(_ text: Substring) throws(AttributeError) -> HLSAttributeList {
            var list = try HLSAttributeList(text)
            try list.substitute(variables)
            return list
        }

        func resolve(_ reference: String) throws(HLSParseError) -> URL {
            switch MediaURLPolicy.resolve(reference, against: base) {
            case .success(let url): return url
            case .failure(let rejection): throw fail("URI \(rejection)")
            }
        }

        mutating func read(_ line: Substring) throws {
            guard line.hasPrefix("#") else {
                var budget = HLSLimits.substitutedLine
                return try uri(variables.substitute(line, budget: &budget))
            }
            guard line.hasPrefix("#EXT") else { return }  // a comment
            let colon = line.firstIndex(of: ":")
            let tag = colon.map { line[..<$0] } ?? line
            let value = colon.map { line[line.index(after: $0)...] } ?? ""
            switch tag {
            case "#EXTM3U": throw fail("a second #EXTM3U")
            case "#EXT-X-VERSION":
                guard let version = Int(value.trimmingSpaces) else { throw fail("EXT-X-VERSION:\(value) is not a number") }
                media.version = version
            case "#EXT-X-DEFINE":
                // Its own attributes are not substituted: a value is never expanded twice.
                if try variables.define(HLSAttributeList(value), url: base, imports: imports) == .imported {
                    guard kind != .master else { throw fail("EXT-X-DEFINE IMPORT in a master playlist (only media playlists import)") }
                    importLine = importLine ?? self.line
                }
            case "#EXT-X-INDEPENDENT-SEGMENTS":
                master.independentSegments = true
                media.independentSegments = true
            case "#EXT-X-START":
                let list = try attributes(value)
                guard let offset = try list.float("TIME-OFFSET", in: -HLSLimits.timeOffset...HLSLimits.timeOffset) else { throw fail("EXT-X-START has no TIME-OFFSET") }
                let start = HLSStartPoint(timeOffset: offset, precise: try list.yesNo("PRECISE"))
                master.start = start
                media.start = start

            // Master playlist tags.
            case "#EXT-X-STREAM-INF":
                try be(.master, tag)
                if let pending = pendingVariant {
                    throw HLSParseError(source: source, line: pending.line, reason: "EXT-X-STREAM-INF is not followed by its URI")
                }
                guard master.variants.count < HLSLimits.variants else { throw fail("more than \(HLSLimits.variants) variants") }
                pendingVariant = (try variant(attributes(value)), self.line)
            case "#EXT-X-MEDIA":
                try be(.master, tag)
                guard master.renditions.count < HLSLimits.variants else { throw fail("more than \(HLSLimits.variants) renditions") }
                master.renditions.append(try rendition(attributes(value)))
            case "#EXT-X-I-FRAME-STREAM-INF", "#EXT-X-SESSION-DATA", "#EXT-X-SESSION-KEY", "#EXT-X-CONTENT-STEERING":
                try be(.master, tag)

            // Media playlist tags.
            case "#EXT-X-TARGETDURATION":
                try be(.media, tag)
                guard let seconds = Double(value.trimmingSpaces), seconds > 0, seconds <= Double(HLSLimits.targetDuration) else {
                    throw fail("EXT-X-TARGETDURATION:\(value) is not a number of seconds from 1 to \(HLSLimits.targetDuration)")
                }
                media.targetDuration = Int(seconds.rounded(.up))
                sawTargetDuration = true
            case "#EXT-X-MEDIA-SEQUENCE":
                try be(.media, tag)
                let number = try sequenceNumber(value, tag: "EXT-X-MEDIA-SEQUENCE")
                guard media.segments.isEmpty else { throw fail("EXT-X-MEDIA-SEQUENCE after the first segment") }
                media.mediaSequence = number
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                try be(.media, tag)
                let number = try sequenceNumber(value, tag: "EXT-X-DISCONTINUITY-SEQUENCE")
                guard media.segments.isEmpty else { throw fail("EXT-X-DISCONTINUITY-SEQUENCE after the first segment") }
                media.discontinuitySequence = number
            case "#EXT-X-ENDLIST":
                try be(.media, tag)
                media.endList = true
            case "#EXT-X-PLAYLIST-TYPE":
                try be(.media, tag)
                guard let type = HLSMediaPlaylist.PlaylistType(rawValue: String(value.trimmingSpaces)) else {
                    throw fail("EXT-X-PLAYLIST-TYPE:\(value) is not EVENT or VOD")
                }
                media.playlistType = type
            case "#EXT-X-SERVER-CONTROL":
                try be(.media, tag)
                media.holdBack = try attributes(value).float("HOLD-BACK", in: 0...HLSLimits.timeOffset)
            case "#EXTINF":
                try be(.media, tag)
                let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let duration = Double(parts[0].trimmingSpaces), duration >= 0, duration <= HLSLimits.segmentDuration else {
                    throw fail("EXTINF:\(value) has no valid duration (0 to \(Int(HLSLimits.segmentDuration)) seconds)")
                }
                let title = parts.count > 1 ? String(parts[1].trimmingSpaces) : nil
                pendingInfo = (duration, title?.isEmpty == true ? nil : title, self.line)
            case "#EXT-X-BYTERANGE":
                try be(.media, tag)
                pendingRange = try byteRange(value)
            case "#EXT-X-DISCONTINUITY":
                try be(.media, tag)
                pendingDiscontinuity = true
            case "#EXT-X-GAP":
                try be(.media, tag)
                pendingGap = true
            case _ where Self.cueTags.contains(tag):
                try be(.media, tag)
                cue(tag, value)
            case "#EXT-X-PROGRAM-DATE-TIME":
                try be(.media, tag)
                guard let date = ISO8601Parser.date(String(value.trimmingSpaces)) else {
                    throw fail("EXT-X-PROGRAM-DATE-TIME:\(value) is not an ISO 8601 date")
                }
                pendingDate = date
            case "#EXT-X-KEY":
                try be(.media, tag)
                key = try segmentKey(attributes(value))
            case "#EXT-X-MAP":
                try be(.media, tag)
                let list = try attributes(value)
                let uri = try resolve(try list.required("URI", in: "EXT-X-MAP"))
                var range: HLSByteRange?
                if let text = list["BYTERANGE"] {
                    let parsed = try byteRange(Substring(text))
                    range = HLSByteRange(length: parsed.length, offset: parsed.offset ?? 0)
                }
                // A key in effect here encrypts the section too, and then must give its IV.
                let sectionKey = key?.method == HLSKey.Method.none ? nil : key
                if let sectionKey, sectionKey.isPlayable, sectionKey.iv == nil {
                    throw fail("EXT-X-MAP follows an AES-128 EXT-X-KEY without IV (RFC 8216 §4.3.2.5 requires one)")
                }
                initSection = HLSInitSection(uri: uri, byteRange: range, key: sectionKey)
            default:
                break  // unknown tags are ignored (RFC 8216 §4.1)
            }
        }

        mutating func uri(_ text: String) throws {
            if kind == .master || pendingVariant != nil {
                guard let pending = pendingVariant else { throw fail("URI \"\(text)\" without EXT-X-STREAM-INF before it") }
                var variant = pending.variant
                variant.uri = try resolve(text)
                master.variants.append(variant)
                pendingVariant = nil
                return
            }
            guard let info = pendingInfo else { throw fail("segment URI \"\(text)\" without #EXTINF before it") }
            guard media.segments.count < HLSLimits.segments else { throw fail("more than \(HLSLimits.segments) segments") }
            kind = .media
            let sequence = media.mediaSequence + Int64(media.segments.count)
            var segment = HLSSegment(sequence: sequence, uri: try resolve(text), duration: info.duration)
            segment.title = info.title
            if pendingDiscontinuity { discontinuities += 1 }
            segment.discontinuity = pendingDiscontinuity
            segment.discontinuitySequence = media.discontinuitySequence + discontinuities
            if let range = pendingRange {
                let offset: Int
                if let explicit = range.offset {
                    offset = explicit
                } else if let previous = media.segments.last, previous.uri == segment.uri, let previousRange = previous.byteRange {
                    offset = previousRange.offset + previousRange.length
                    guard range.length <= HLSLimits.byteRangeEnd - offset else {
                        throw fail("EXT-X-BYTERANGE ends past \(HLSLimits.byteRangeEnd)")
                    }
                } else {
                    throw fail("EXT-X-BYTERANGE without an offset must follow a sub-range of the same resource")
                }
                segment.byteRange = HLSByteRange(length: range.length, offset: offset)
            }
            if let date = pendingDate {
                segment.programDate = date
            } else if !pendingDiscontinuity, let previous = media.segments.last, let date = previous.programDate {
                segment.programDate = date.addingTimeInterval(previous.duration)
            }
            segment.key = key?.method == HLSKey.Method.none ? nil : key
            segment.initSection = initSection
            segment.gap = pendingGap
            segment.cues = pendingCues.map { cue in
                var cue = cue
                if cue.id.isEmpty { cue.id = "seq-\(segment.sequence)" }
                return cue
            }
            media.segments.append(segment)
            pendingInfo = nil
            pendingRange = nil
            pendingDiscontinuity = false
            pendingDate = nil
            pendingGap = false
            pendingCues = []
        }

        /// A media or discontinuity sequence number: small enough that counting
        /// segments on from it can never overflow.
        func sequenceNumber(_ text: Substring, tag: String) throws(HLSParseError) -> Int64 {
            guard let number = Int64(text.trimmingSpaces), number >= 0, number <= HLSLimits.sequenceNumber else {
                throw fail("\(tag):\(text) is not a number from 0 to \(HLSLimits.sequenceNumber)")
            }
            return number
        }

        func byteRange(_ text: Substring) throws(HLSParseError) -> (length: Int, offset: Int?) {
            let parts = text.trimmingSpaces.split(separator: "@", omittingEmptySubsequences: false)
            let sizes = 0...HLSLimits.byteRangeEnd
            guard parts.count <= 2, let length = Int(parts[0]), sizes.contains(length) else {
                throw fail("byte range \"\(text)\" is not LENGTH[@OFFSET] with a length up to \(HLSLimits.byteRangeEnd)")
            }
            guard parts.count == 2 else { return (length, nil) }
            guard let offset = Int(parts[1]), sizes.contains(offset), length <= HLSLimits.byteRangeEnd - offset else {
                throw fail("byte range \"\(text)\" ends past \(HLSLimits.byteRangeEnd)")
            }
            return (length, offset)
        }

        func finish(lastLine: Int) throws(HLSParseError) -> HLSPlaylist {
            if let pending = pendingVariant {
                throw HLSParseError(source: source, line: pending.line, reason: "EXT-X-STREAM-INF is not followed by its URI")
            }
            if let info = pendingInfo {
                throw HLSParseError(source: source, line: info.line, reason: "#EXTINF is not followed by a segment URI")
            }
            if kind == .master {
                guard !master.variants.isEmpty else { throw HLSParseError(source: source, line: lastLine, reason: "a master playlist without variants") }
                var master = master
                master.variables = variables
                return .master(master)
            }
            guard sawTargetDuration else {
                throw HLSParseError(source: source, line: lastLine, reason: "a media playlist without EXT-X-TARGETDURATION")
            }
            return .media(media)
        }
    }
}
