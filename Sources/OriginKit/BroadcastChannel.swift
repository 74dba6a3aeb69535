import Foundation

/// A channel as a tuner or a headend hands it over: one MPEG-TS with the codecs,
/// picture geometry and sound tracks broadcasters send (interlaced MPEG-2 and H.264,
/// anamorphic SD, 1440x1080, several languages and an audio-description track in one
/// TS, AC-3, E-AC-3, MP2, AAC in LATM, a radio channel with no picture). Listed in
/// `channels/channels.json` under `broadcast`; `BroadcastRecipe` encodes each.
public struct BroadcastChannel: Codable, Sendable, Equatable {
    public var number: Int
    public var id: String
    public var name: String
    /// Background colour, `#RRGGBB`.
    public var colour: String
    /// Nil: a radio channel (sound only).
    public var video: Video?
    /// In PMT order; the first is the one a player without a choice plays.
    public var audio: [Audio]
    /// A stream that changes (`BroadcastForms`): nil, an ordinary one.
    public var change: Change?
    /// DVB subtitle streams (`BroadcastSubtitles`), in PMT order.
    public var subtitles: [Subtitles]?

    /// One DVB subtitle stream: its language and its pages, each shown for an equal part of the loop;
    /// with `teletext`, DVB teletext subtitles on that page (`888`) instead of bitmaps.
    public struct Subtitles: Codable, Sendable, Equatable {
        /// ISO 639-2.
        public var language: String
        public var name: String
        public var script: [String]
        public var teletext: Int?

        /// The teletext page as its hex digits are sent (888 is 0x888).
        public var teletextPage: Int? { teletext.flatMap { Int(String($0), radix: 16) } }
    }

    /// How a channel's stream changes as it plays.
    public struct Change: Codable, Sendable, Equatable {
        /// `pmt`: half way through the loop the PMT changes (new PIDs, a headend reconfigured) and
        /// the sound has `toneHz`; `multiplex`: a second programme (service `serviceID`, colour
        /// `colour`, tone `toneHz`) beside the first in one TS.
        public var kind: String
        public var toneHz: Int
        public var colour: String?
        public var serviceID: Int?
    }

    public struct Video: Codable, Sendable, Equatable {
        /// `h264` or `mpeg2`.
        public var codec: String
        /// The coded size.
        public var width: Int
        public var height: Int
        /// The sample aspect ratio, `N:D` ("64:45": 720x576 shown as 16:9).
        public var sar: String
        /// Coded as fields (top field first) at `rate` frames a second, or progressive.
        public var interlaced: Bool
        /// Frames a second: `25`, `50`, `30000/1001`.
        public var rate: String

        /// The SAR as numbers, nil unless both are positive and at most 1000.
        public var sampleAspect: (numerator: Int, denominator: Int)? { Self.ratio(sar, separator: ":") }

        /// The frame rate as a fraction, nil unless it is one from 1 to 120 a second.
        public var frameRate: (numerator: Int, denominator: Int)? {
            guard let fraction = rate.contains("/") ? Self.ratio(rate, separator: "/") : Int(rate).map({ ($0, 1) }),
                  fraction.1 > 0, (1...120).contains(fraction.0 / fraction.1) else { return nil }
            return fraction
        }

        /// The picture as the viewer sees it: the coded width times the SAR.
        public var displayWidth: Int {
            guard let sar = sampleAspect else { return width }
            return width * sar.numerator / sar.denominator
        }

        static func ratio(_ text: String, separator: Character) -> (Int, Int)? {
            let parts = text.split(separator: separator)
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]),
                  (1...100_000).contains(a), (1...100_000).contains(b) else { return nil }
            return (a, b)
        }
    }

    public struct Audio: Codable, Sendable, Equatable {
        /// ISO 639-2, as a PMT carries it ("eng").
        public var language: String
        public var name: String
        public var toneHz: Int
        /// `mp2`, `ac3`, `eac3`, `aac` or `latm` (AAC in LATM, as DVB-T2 sends it).
        public var codec: String
        /// 2, or 6 (5.1: the tone in the centre channel only, as a broadcast's speech is).
        public var channels: Int
        /// Audio description (visual-impaired commentary): the PMT says so.
        public var description: Bool?
    }

    public var isRadio: Bool { video == nil }

    public var rgb: (red: UInt8, green: UInt8, blue: UInt8)? { DemoChannel.rgb(colour) }

    static let videoCodecs: Set = ["h264", "mpeg2"]
    static let audioCodecs: Set = ["mp2", "ac3", "eac3", "aac", "latm"]

    /// Why this entry cannot be encoded, or nil.
    func problem() -> String? {
        guard number > 0 else { return "number \(number) is not positive" }
        guard rgb != nil else { return "colour \"\(colour)\" is not #RRGGBB" }
        guard !audio.isEmpty else { return "needs at least one audio entry" }
        if let video {
            guard Self.videoCodecs.contains(video.codec) else { return "video codec \"\(video.codec)\" is not one of \(Self.videoCodecs.sorted())" }
            guard (16...1920).contains(video.width), (16...1088).contains(video.height),
                  video.width % 2 == 0, video.height % 4 == 0 else { return "size \(video.width)x\(video.height) is not an even size up to 1920x1088" }
            guard video.sampleAspect != nil else { return "sar \"\(video.sar)\" is not N:D" }
            guard video.frameRate != nil else { return "rate \"\(video.rate)\" is not a frame rate" }
        }
        if let change {
            guard ["pmt", "multiplex"].contains(change.kind) else { return "change \"\(change.kind)\" is not pmt or multiplex" }
            guard (20...20_000).contains(change.toneHz) else { return "the change's tone \(change.toneHz) Hz is not audible" }
            guard video != nil else { return "a changing stream needs a picture" }
            if change.kind == "multiplex" {
                guard change.colour.flatMap(DemoChannel.rgb) != nil else { return "a multiplex's second programme needs a #RRGGBB colour" }
                guard let service = change.serviceID, (2...65_535).contains(service) else { return "a multiplex's second service id must be 2 to 65535" }
            }
        }
        guard (subtitles ?? []).count <= BroadcastSubtitles.mostStreams else { return "at most \(BroadcastSubtitles.mostStreams) subtitle streams" }
        for track in subtitles ?? [] {
            guard track.language.count == 3, track.language.allSatisfy(\.isLowercase) else { return "subtitle language \"\(track.language)\" is not ISO 639-2" }
            guard (1...8).contains(track.script.count), track.script.allSatisfy({ (1...32).contains($0.count) && $0.allSatisfy(\.isASCII) }) else {
                return "subtitles: one to eight pages of 1 to 32 plain characters"
            }
            guard video != nil, change == nil else { return "subtitles need a picture and a stream that does not change" }
            if let page = track.teletext {
                guard (100...899).contains(page) else { return "teletext page \(page) is not 100 to 899" }
                guard track.script.allSatisfy({ $0.count <= 34 }) else { return "a teletext row holds 34 characters at most" }
            }
        }
        for track in audio {
            guard Self.audioCodecs.contains(track.codec) else { return "audio codec \"\(track.codec)\" is not one of \(Self.audioCodecs.sorted())" }
            guard track.channels == 2 || track.channels == 6 else { return "\(track.channels) audio channels: 2 or 6 only" }
            guard (20...20_000).contains(track.toneHz) else { return "tone \(track.toneHz) Hz is not audible" }
            guard track.language.count == 3, track.language.allSatisfy(\.isLowercase) else { return "language \"\(track.language)\" is not ISO 639-2" }
        }
        return nil
    }
}
