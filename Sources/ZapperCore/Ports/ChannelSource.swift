import Foundation

/// Where the player's channels come from: on a box, our HLS client and FFmpeg
/// (`ZapperEngine`); in the behaviour tests, a scripted source.
public protocol ChannelSource: Sendable {
    /// A stream of `channel` for tune `serial`, or (serial nil) a warm neighbour that
    /// follows the live edge cheaply, decodes nothing and reports nothing until
    /// `promote`. Nothing is fetched before `start`.
    func open(_ channel: LineupChannel, serial: Int?, audioLanguage: String?, report: @escaping ChannelReport) -> any ChannelStream
    /// The bytes every warm neighbour has fetched since the start: what keeping them costs the line.
    var warmNeighbourBytes: Int { get }
    /// Deinterlace: Auto or Off, for every stream from its next picture.
    func setDeinterlace(_ mode: DeinterlaceMode)
}

extension ChannelSource {
    public var warmNeighbourBytes: Int { 0 }
    public func setDeinterlace(_ mode: DeinterlaceMode) {}
}

/// What a stream tells the player, with the tune it serves.
public typealias ChannelReport = @Sendable (_ news: PlaybackNews, _ serial: Int) -> Void

/// What a stream tells the player, for the tune it serves.
public enum PlaybackNews: Sendable, Equatable {
    /// The channel failed to load or play on (the tuner decides what that means).
    case failed(PlaybackFailure)
    /// Its separate audio rendition failed: the picture plays on.
    case audioFailed(PlaybackFailure)
    /// A cue in its playlist (an ad break, a date range), for automation.
    case cue(HLSCue)
}

/// One tune of one channel: pictures and sound on one timeline (seconds), taken
/// by the frame loop and the audio thread as they fall due. Safe to call from
/// any thread; `stop` returns at once.
public protocol ChannelStream: AnyObject, Sendable {
    var channel: LineupChannel { get }
    /// The tune it serves (0 while it is a warm neighbour).
    var serial: Int { get }
    /// Whether it is failing as the viewer sees it.
    var failures: FailureMark { get }
    /// Its audio languages and subtitles.
    var tracks: any ChannelTrackList { get }
    func start()
    /// A warm neighbour becomes tune `serial`; a failure it had while warm is told at once.
    func promote(serial: Int)
    /// Ends fetching and decoding; with `keepingSound` its decoded sound stays for a fade-out.
    func stop(keepingSound: Bool)
    /// Plays another of its audio languages.
    func chooseAudio(language: String)
    /// The newest picture due at `time`, dropping older ones; with `time` nil (nothing shown
    /// yet) the first waiting picture.
    func picture(at time: Double?) -> TimedPicture?
    /// `frames` stereo frames from timeline time `time` (`AudioTake`); nil when nothing is waiting.
    func takeAudio(frames: Int, from time: Double) -> AudioTake?
    /// Follows subtitle `rendition` from media sequence `startSequence`: its cues to `cues`,
    /// its troubles to `trouble`, until the returned follower is let go.
    func followSubtitles(_ rendition: HLSRendition, url: URL, from startSequence: Int64,
                         cues: @escaping @Sendable ([SubtitleCue]) -> Void,
                         trouble: @escaping @Sendable (SubtitleTrouble) -> Void) -> any SubtitleFollower
    /// Decodes closed captions `channel` from the pictures from now on (nil: none).
    func chooseCaptions(_ channel: CaptionChannel?)
    /// The lines of the chosen captions on screen at timeline time `time` (empty: none).
    func captionLines(at time: Double) -> [String]
    /// Decodes the bitmap subtitles of `track` (one of `tracks.bitmapSubtitleTracks`; nil: none) from now on.
    func chooseBitmapSubtitles(_ track: BitmapSubtitleTrack?)
    /// The chosen bitmap subtitle on screen at timeline time `time` (nil: none).
    func bitmapSubtitle(at time: Double) -> SubtitleBitmap?
    /// The timeline time of its first decoded sound; nil before any.
    var soundStart: Double? { get }
    /// Its stream turned out to carry sound and no picture (a radio channel).
    var isSoundOnly: Bool { get }
    /// Paused or played behind live: it goes on fetching while what it plays waits, up to `budget`
    /// (instead of the few segments kept ahead at the live edge), until it stops.
    func keepBehindLive(_ budget: TimeshiftBudget)
}

extension ChannelStream {
    /// A stream without closed captions.
    public func chooseCaptions(_ channel: CaptionChannel?) {}
    public func captionLines(at time: Double) -> [String] { [] }
    public var soundStart: Double? { nil }
    public func chooseBitmapSubtitles(_ track: BitmapSubtitleTrack?) {}
    public func bitmapSubtitle(at time: Double) -> SubtitleBitmap? { nil }
    public var isSoundOnly: Bool { false }
    public func keepBehindLive(_ budget: TimeshiftBudget) {}

    /// The picture `PictureDue` says to take this turn (nil: none, or none waiting).
    public func picture(_ take: PictureDue.Take) -> TimedPicture? {
        switch take {
        case .first: return picture(at: nil)
        case .upTo(let time): return picture(at: time)
        case .nothing: return nil
        }
    }
}

/// A decoded picture, opaque to the player: the screen that came with the source draws it.
public protocol VideoPicture: AnyObject {
    /// What it holds in memory.
    var byteSize: Int { get }
    /// Its size in pixels (0 when it has none).
    var width: Int { get }
    var height: Int { get }
}

extension VideoPicture {
    public var width: Int { 0 }
    public var height: Int { 0 }
}

/// A decoded picture waiting for its time on the timeline; `segment` counts the
/// channel's segments in order of arrival (a picture of a later segment than a
/// failure ends the failure).
public struct TimedPicture {
    public let time: Double
    public let picture: any VideoPicture
    public let segment: Int
    /// Pictures due before this one that were dropped unseen to reach it.
    public let dropped: Int
    /// A picture shown ahead of its stream (a warm neighbour's kept key frame): the clock, and
    /// the sound, start at the next picture, when the stream itself has caught up.
    public let isStill: Bool

    public init(time: Double, picture: any VideoPicture, segment: Int, dropped: Int = 0, isStill: Bool = false) {
        self.time = time
        self.picture = picture
        self.segment = segment
        self.dropped = dropped
        self.isStill = isStill
    }

    /// The same picture, counted as reached past `count` older ones.
    public func dropping(_ count: Int) -> TimedPicture {
        TimedPicture(time: time, picture: picture, segment: segment, dropped: count, isStill: isStill)
    }
}

/// Sound taken from a stream: 48 kHz interleaved stereo starting at timeline `time`,
/// the first `lead` frames of it silence (the sound starts later than was asked).
public struct AudioTake: Equatable {
    public let time: Double
    public let samples: [Int16]
    public let lead: Int

    public init(time: Double, samples: [Int16], lead: Int) {
        self.time = time
        self.samples = samples
        self.lead = lead
    }
}

/// A channel's audio languages and subtitles as its master lists them, and where
/// its discontinuities sit on the timeline (for the subtitles' timing).
public protocol ChannelTrackList: AnyObject, Sendable {
    var audioRenditions: [HLSRendition] { get }
    /// The audio playing (nil before the master loads, or when none is named).
    var playingAudio: HLSRendition? { get }
    /// Subtitle renditions with a playlist.
    var subtitleRenditions: [HLSRendition] { get }
    /// Closed captions in the pictures' own stream that can be shown (CEA-608).
    var captionTracks: [CaptionTrack] { get }
    /// Bitmap subtitles in the stream (DVB subtitles' PIDs in a raw TS's PMT).
    var bitmapSubtitleTracks: [BitmapSubtitleTrack] { get }
    /// The first media sequence decoded (subtitles start there).
    var startSequence: Int64? { get }
    /// Discontinuity `sequence`'s stream time + this = timeline time.
    func offset(discontinuity sequence: Int64) -> Double?
}

extension ChannelTrackList {
    public var captionTracks: [CaptionTrack] { [] }
    public var bitmapSubtitleTracks: [BitmapSubtitleTrack] { [] }
}

/// A DVB subtitle stream, or a teletext subtitle page, as the Subtitles tab lists it.
public struct BitmapSubtitleTrack: Sendable, Equatable {
    /// "Deutsch", "English (hard of hearing)", "English (teletext)".
    public var name: String
    public var language: String?
    public var hearingImpaired: Bool
    /// A teletext page (0x888), not DVB subtitles.
    public var teletextPage: Int?

    public init(name: String, language: String?, hearingImpaired: Bool = false, teletextPage: Int? = nil) {
        self.name = name
        self.language = language
        self.hearingImpaired = hearingImpaired
        self.teletextPage = teletextPage
    }
}

/// A subtitle rendition being followed; it stops when let go.
public protocol SubtitleFollower: AnyObject {}

/// What went wrong following subtitles, in words for the log.
public enum SubtitleTrouble: Sendable, Equatable {
    /// Its playlist failed (said at each report).
    case playlist(String)
    /// A cue segment failed (said once per track).
    case segment(String)
}
