import Foundation

/// The demo channels as listed in `channels/channels.json`: the one place
/// that names each channel's number, colour and tones.
public struct ChannelCatalog: Codable, Sendable, Equatable {
    public var segmentSeconds: Int
    public var loopSeconds: Int
    public var windowSegments: Int
    public var channels: [DemoChannel]
    /// The channels as a tuner or headend hands them over (`BroadcastChannel`), served as raw
    /// MPEG-TS and HLS under `/broadcast/` and by the origin's HDHomeRun.
    public var broadcast: [BroadcastChannel]?

    public var broadcastChannels: [BroadcastChannel] { broadcast ?? [] }

    public func broadcastChannel(number: Int) -> BroadcastChannel? {
        broadcastChannels.first { $0.number == number }
    }

    /// Segments in one pre-encoded loop.
    public var loopSegments: Int { loopSeconds / segmentSeconds }

    public func channel(number: Int) -> DemoChannel? {
        channels.first { $0.number == number }
    }

    public static func load(from url: URL) throws -> ChannelCatalog {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OriginError.badCatalog(path: url.path, reason: "cannot read it (\(error.localizedDescription))")
        }
        let catalog: ChannelCatalog
        do {
            catalog = try JSONDecoder().decode(ChannelCatalog.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw OriginError.badCatalog(path: url.path, reason: context.debugDescription)
        } catch let DecodingError.keyNotFound(key, context) {
            throw OriginError.badCatalog(path: url.path, reason: "missing \"\(key.stringValue)\" at \(context.codingPath.pathText)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw OriginError.badCatalog(path: url.path, reason: "wrong type at \(context.codingPath.pathText): \(context.debugDescription)")
        } catch {
            throw OriginError.badCatalog(path: url.path, reason: "\(error)")
        }
        try catalog.validate(path: url.path)
        return catalog
    }

    func validate(path: String) throws {
        func fail(_ reason: String) -> OriginError { .badCatalog(path: path, reason: reason) }
        guard segmentSeconds > 0, loopSeconds > 0, loopSeconds % segmentSeconds == 0 else {
            throw fail("loopSeconds must be a positive multiple of segmentSeconds")
        }
        guard windowSegments >= 3 else { throw fail("windowSegments must be at least 3") }
        guard !channels.isEmpty else { throw fail("no channels") }
        var seen = Set<Int>()
        for channel in channels {
            guard channel.number > 0, seen.insert(channel.number).inserted else {
                throw fail("channel number \(channel.number) is not positive or not unique")
            }
            guard channel.rgb != nil else { throw fail("channel \(channel.number): colour \"\(channel.colour)\" is not #RRGGBB") }
            guard !channel.audio.isEmpty else { throw fail("channel \(channel.number): needs at least one audio entry") }
            for audio in channel.audio where !(20...20_000).contains(audio.toneHz) {
                throw fail("channel \(channel.number): tone \(audio.toneHz) Hz is not audible")
            }
            for audio in channel.audio where !(-40...0).contains(audio.levelDB ?? 0) {
                throw fail("channel \(channel.number): level \(audio.levelDB ?? 0) dB is not within -40…0")
            }
            for audio in channel.audio where audio.streamLanguage == nil {
                throw fail("channel \(channel.number): language \"\(audio.language)\" has no ISO 639-2 code here")
            }
            if let reason = CaptionedChannel.problem(channel, loopSeconds: loopSeconds) { throw fail("channel \(channel.number): \(reason)") }
            guard Set(channel.audio.map(\.language)).count == channel.audio.count else {
                throw fail("channel \(channel.number): two audio tracks with one language")
            }
        }
        for channel in broadcastChannels {
            if let reason = channel.problem() { throw fail("broadcast channel \(channel.number): \(reason)") }
            guard seen.insert(channel.number).inserted else {
                throw fail("broadcast channel number \(channel.number) is not unique")
            }
        }
    }
}

public struct DemoChannel: Codable, Sendable, Equatable {
    public var number: Int
    public var id: String
    public var name: String
    public var group: String
    /// Background colour, `#RRGGBB`.
    public var colour: String
    /// All entries are muxed into every variant, in this order; the first is
    /// the default (EXT-X-MEDIA TYPE=AUDIO without a URI, see EncodeRecipe).
    public var audio: [AudioTrack]
    public var subtitles: [SubtitleTrack]?
    /// Captions in the video's SEI (`CaptionedChannel`): CC1 (CEA-608), then SERVICE1 (CEA-708) if any.
    public var captions: [CaptionTrack]?
    public var syncFlash: SyncFlash?

    public struct AudioTrack: Codable, Sendable, Equatable {
        /// The playlist's LANGUAGE (RFC 5646, e.g. "de").
        public var language: String
        public var name: String
        public var toneHz: Int
        /// The tone's level against the other channels' (dB, -40…0; absent: 0): a quieter channel.
        public var levelDB: Double?

        /// The ISO 639-2 code written into the MPEG-TS (e.g. "deu"), which
        /// carries three letters only; nil for a language not known here.
        public var streamLanguage: String? {
            language.count == 3 ? language.lowercased() : Self.iso639_2[language.lowercased()]
        }

        static let iso639_2 = ["en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld",
                               "pt": "por", "sv": "swe", "da": "dan", "fi": "fin", "pl": "pol", "ja": "jpn"]
    }

    public struct SubtitleTrack: Codable, Sendable, Equatable {
        public var language: String
        public var name: String
    }

    /// Closed captions carried in the picture's H.264 SEI: what the master's
    /// EXT-X-MEDIA TYPE=CLOSED-CAPTIONS says, and the captions' script: each
    /// entry one pop-on caption of one to four rows, shown in turn over the loop.
    public struct CaptionTrack: Codable, Sendable, Equatable {
        public var instream: String
        public var language: String
        public var name: String
        public var script: [[String]]
    }

    /// A once-per-second white flash with a simultaneous short beep.
    public struct SyncFlash: Codable, Sendable, Equatable {
        public var beepHz: Int
        public var beepMs: Int
    }

    public var rgb: (red: UInt8, green: UInt8, blue: UInt8)? { Self.rgb(colour) }

    /// `#RRGGBB` as numbers, for a colour that is no channel's own (a multiplex's second programme).
    public static func rgbOf(_ colour: String) -> (red: UInt8, green: UInt8, blue: UInt8)? { rgb(colour) }

    /// `#RRGGBB` as numbers.
    static func rgb(_ colour: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let hex = colour.hasPrefix("#") ? colour.dropFirst() : colour[...]
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    public var alternateAudio: [AudioTrack] { Array(audio.dropFirst()) }
    public var subtitleTracks: [SubtitleTrack] { subtitles ?? [] }
    public var captionTracks: [CaptionTrack] { captions ?? [] }

    /// Initials for the logo: "Ocean Blue" -> "OB".
    public var initials: String {
        String(name.split(separator: " ").prefix(2).compactMap(\.first)).uppercased()
    }
}

public enum OriginError: Error, CustomStringConvertible {
    case badCatalog(path: String, reason: String)
    case encodeFailed(channel: Int, command: String, output: String)
    case badCache(path: String, reason: String)
    case badFaultSpec(String)

    public var description: String {
        switch self {
        case let .badCatalog(path, reason): "\(path): \(reason)"
        case let .encodeFailed(channel, command, output):
            "encoding channel \(channel) failed: \(command)\n\(output)"
        case let .badCache(path, reason): "cache \(path): \(reason)"
        case let .badFaultSpec(reason): "bad fault: \(reason)"
        }
    }
}

extension [any CodingKey] {
    var pathText: String {
        isEmpty ? "top level" : map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
