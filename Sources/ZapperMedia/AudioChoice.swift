import ZapperCore

/// One audio stream of a demuxed segment.
public struct AudioStream: Sendable, Equatable {
    /// The stream index (as in `Demuxer.parameters` and `Packet.streamIndex`).
    public let index: Int
    /// The MPEG-TS PID.
    public let streamID: Int32
    /// The stream's language as the container says it (ISO 639-2 in MPEG-TS, e.g. "deu"), if any.
    public let language: String?
    public let codecName: String
    /// The PMT's audio type says visual-impaired commentary: an audio description.
    public let isDescription: Bool

    public init(index: Int, streamID: Int32, language: String?, codecName: String, isDescription: Bool = false) {
        self.index = index
        self.streamID = streamID
        self.language = language
        self.codecName = codecName
        self.isDescription = isDescription
    }

    /// The streams as the track chooser and the panel see them, in order.
    public static func tracks(_ streams: [AudioStream]) -> [AudioTrackInfo] {
        streams.enumerated().map { position, stream in
            AudioTrackInfo(name: AudioTrackPick.streamName(language: stream.language, isDescription: stream.isDescription, position: position),
                           language: stream.language, isDescription: stream.isDescription)
        }
    }
}

/// Which audio stream a `Demuxer` reads when a segment carries several.
public enum AudioChoice: Sendable, Equatable {
    /// The first audio stream.
    case first
    /// A stream index from `Demuxer.audioStreams`; the first when there is no such audio stream.
    case stream(Int)
    /// The first stream in one of these languages, tried in order (RFC 5646 or
    /// ISO 639 codes: "de", "deu" and "ger" are one); the first stream when none matches.
    case languages([String])

    /// `AudioTrackPick`'s rules: the track `chosen` names (a name or a language), else the box's preferences.
    case pick(chosen: String?, preferences: AudioPreferences)

    /// The first stream in this language, else the first.
    public static func language(_ tag: String) -> AudioChoice { .languages([tag]) }

    /// The stream index chosen among `streams`, nil when there are none.
    public func pick(from streams: [AudioStream]) -> Int? {
        switch self {
        case .first:
            break
        case .stream(let index):
            if streams.contains(where: { $0.index == index }) { return index }
        case let .pick(chosen, preferences):
            return AudioTrackPick.pick(AudioStream.tracks(streams), chosen: chosen, preferences: preferences).map { streams[$0].index }
        case .languages(let tags):
            for tag in tags {
                if let match = streams.first(where: { $0.language.map { LanguageCode.matches($0, tag) } ?? false }) {
                    return match.index
                }
            }
        }
        return streams.first?.index
    }
}
