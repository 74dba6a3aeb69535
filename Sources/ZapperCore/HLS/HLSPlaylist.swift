import Foundation

/// An HLS playlist (RFC 8216): a master playlist of variants and
/// renditions, or a media playlist of segments. Every URI in it is absolute
/// and has passed `MediaURLPolicy`.
public enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)
}

public struct HLSMasterPlaylist: Sendable, Equatable {
    public var variants: [HLSVariant] = []
    public var renditions: [HLSRendition] = []
    public var independentSegments = false
    public var start: HLSStartPoint?
    /// Its EXT-X-DEFINE variables: what its media playlists may IMPORT.
    public var variables = HLSVariables()

    public init() {}

    public func renditions(_ type: HLSRendition.MediaType, group: String?) -> [HLSRendition] {
        guard let group else { return [] }
        return renditions.filter { $0.type == type && $0.groupID == group }
    }

    /// The closed captions `variant` carries, as its CLOSED-CAPTIONS group names them.
    public func captionTracks(for variant: HLSVariant) -> [CaptionTrack] {
        guard case .group(let group) = variant.closedCaptions else { return [] }
        var seen = Set<CaptionChannel>()
        return renditions(.closedCaptions, group: group).compactMap { rendition in
            guard let channel = rendition.instream, seen.insert(channel).inserted else { return nil }
            return CaptionTrack(channel: channel, name: rendition.name, language: rendition.language)
        }
    }
}

public struct HLSVariant: Sendable, Equatable {
    public var uri: URL
    /// Peak bits per second.
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var resolution: HLSResolution?
    public var codecs: [String] = []
    public var frameRate: Double?
    public var audioGroup: String?
    public var subtitlesGroup: String?
    /// CLOSED-CAPTIONS: a group of TYPE=CLOSED-CAPTIONS renditions, none (NONE), or not said.
    public var closedCaptions: ClosedCaptionsReference = .unspecified

    public init(uri: URL, bandwidth: Int) {
        self.uri = uri
        self.bandwidth = bandwidth
    }
}

/// EXT-X-STREAM-INF's CLOSED-CAPTIONS attribute.
public enum ClosedCaptionsReference: Sendable, Equatable {
    /// Absent: the master does not say.
    case unspecified
    /// NONE: the variant carries no captions.
    case none
    case group(String)
}

public struct HLSResolution: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// EXT-X-MEDIA: an alternate rendition (audio language, subtitles, …).
public struct HLSRendition: Sendable, Equatable {
    public enum MediaType: String, Sendable {
        case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
    }

    public var type: MediaType
    public var groupID: String
    public var name: String
    public var language: String?
    public var isDefault = false
    public var autoselect = false
    public var forced = false
    /// Nil when the rendition is carried inside the variant's own stream.
    public var uri: URL?
    /// TYPE=CLOSED-CAPTIONS: the INSTREAM-ID's service (nil for one not known here).
    public var instream: CaptionChannel?
    /// CHARACTERISTICS lists `public.accessibility.describes-video`: an audio description.
    public var describesVideo = false
    public static let describesVideoCharacteristic = "public.accessibility.describes-video"

    public init(type: MediaType, groupID: String, name: String) {
        self.type = type
        self.groupID = groupID
        self.name = name
    }
}

/// EXT-X-START: where a client should begin; negative offsets count from the end.
public struct HLSStartPoint: Sendable, Equatable {
    public var timeOffset: Double
    public var precise: Bool
}

public struct HLSMediaPlaylist: Sendable, Equatable {
    public enum PlaylistType: String, Sendable { case event = "EVENT", vod = "VOD" }

    public var version: Int?
    public var targetDuration: Int = 0
    public var mediaSequence: Int64 = 0
    public var discontinuitySequence: Int64 = 0
    public var segments: [HLSSegment] = []
    public var endList = false
    public var playlistType: PlaylistType?
    public var independentSegments = false
    public var start: HLSStartPoint?
    /// EXT-X-SERVER-CONTROL HOLD-BACK, in seconds.
    public var holdBack: Double?
    /// EXT-X-DATERANGE tags, as cues (at most `HLSCue.maxPerPlaylist`).
    public var dateRanges: [HLSCue] = []

    public init() {}

    /// Live until the server says the list is complete.
    public var isLive: Bool { !endList && playlistType != .vod }

    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }
}

public struct HLSSegment: Sendable, Equatable {
    public var sequence: Int64
    public var uri: URL
    public var duration: Double
    public var title: String?
    /// EXT-X-DISCONTINUITY precedes this segment.
    public var discontinuity = false
    /// The discontinuity sequence number this segment belongs to.
    public var discontinuitySequence: Int64 = 0
    public var byteRange: HLSByteRange?
    public var programDate: Date?
    public var key: HLSKey?
    /// EXT-X-MAP: the initialization section (fMP4).
    public var initSection: HLSInitSection?
    /// EXT-X-GAP: the segment is missing. It is never fetched; its duration and
    /// sequence number still count, so the timeline runs on over it.
    public var gap = false
    /// SCTE-35 cue tags before this segment (EXT-X-CUE-OUT, EXT-X-CUE-IN, EXT-OATCLS-SCTE35).
    public var cues: [HLSCue] = []

    public init(sequence: Int64, uri: URL, duration: Double) {
        self.sequence = sequence
        self.uri = uri
        self.duration = duration
    }
}

extension HLSSegment {
    /// How the segment's bytes are packed: fragmented MP4 when it has an
    /// initialization section (EXT-X-MAP) that is not itself MPEG-TS.
    public var container: SegmentContainer {
        guard let initSection else { return .mpegTS }
        return initSection.uri.path.lowercased().hasSuffix(".ts") ? .mpegTS : .fragmentedMP4
    }
}

/// The container of a media segment, for the demuxer.
public enum SegmentContainer: Sendable, Equatable {
    /// MPEG-TS: each segment stands alone.
    case mpegTS
    /// Fragmented MP4 (CMAF): each segment is `moof`+`mdat` boxes that need
    /// the initialization section's `moov` before them.
    case fragmentedMP4
}

public struct HLSByteRange: Sendable, Equatable {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }
}

public struct HLSInitSection: Sendable, Equatable {
    public var uri: URL
    public var byteRange: HLSByteRange?
    /// The EXT-X-KEY in effect where the EXT-X-MAP stands, when it encrypts
    /// (RFC 8216 §4.3.2.5: the section is encrypted with it, its IV given).
    public var key: HLSKey?

    public init(uri: URL, byteRange: HLSByteRange?, key: HLSKey? = nil) {
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
    }
}

/// EXT-X-KEY. For AES-128 without an IV attribute the IV is the segment's
/// media sequence number, big-endian in 16 bytes (RFC 8216 §5.2).
public struct HLSKey: Sendable, Equatable {
    /// A method other than these (e.g. SAMPLE-AES-CTR) is kept by name: its
    /// segments cannot be played, but the rest of the playlist can.
    public enum Method: Sendable, Equatable {
        case none, aes128, sampleAES
        case other(String)

        public init(_ name: String) {
            switch name {
            case "NONE": self = .none
            case "AES-128": self = .aes128
            case "SAMPLE-AES": self = .sampleAES
            default: self = .other(name)
            }
        }

        public var name: String {
            switch self {
            case .none: "NONE"
            case .aes128: "AES-128"
            case .sampleAES: "SAMPLE-AES"
            case .other(let name): name
            }
        }
    }

    public var method: Method
    public var uri: URL?
    public var iv: [UInt8]?
    public var keyFormat: String?

    /// Whether this client can decrypt it: AES-128 with the plain 16-byte key ("identity").
    public var isPlayable: Bool { method == .aes128 && (keyFormat == nil || keyFormat == "identity") }

    public func initializationVector(sequence: Int64) -> [UInt8] {
        if let iv { return iv }
        return Array(repeating: 0, count: 8) + withUnsafeBytes(of: UInt64(bitPattern: sequence).bigEndian, Array.init)
    }
}

/// A playlist that cannot be used, with the line and the reason.
public struct HLSParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var reason: String

    public var description: String { "\(source):\(line): \(reason)" }
}

extension HLSParseError: PlaybackFailureConvertible {
    public var playbackFailure: PlaybackFailure { PlaybackFailure(.invalid, description) }
}
