import Foundation
import ZapperCore
import ZapperHLS

/// The channels of a box: each stream fetched by our HLS client with the
/// channel's own request headers, and decoded by FFmpeg on threads of its own
/// (`ChannelPlayback`). Codec parameters learnt once are kept for every later tune.
public struct HLSChannelSource: ChannelSource {
    private let parametersCache = ParametersCache()
    /// The picture size this box decodes too slowly, learnt by any channel, kept for all.
    public let decodeCeiling: DecodeCeiling
    /// The rate sound is delivered at (the audio thread opens every device at it).
    public let sampleRate: Int

    /// The screen's size: no variant larger than what fills it is fetched.
    public let screen: ScreenSize
    /// Deinterlace: Auto or Off, for every playback from its next picture.
    public let deinterlace = DeinterlaceSwitch()

    /// The sound chosen where nobody chose a track (`[sound] languages`, `audio-description`).
    public let audioPreferences: AudioPreferences

    public init(sampleRate: Int = 48_000, decodeCeiling: DecodeCeiling = DecodeCeiling(), screen: ScreenSize = ScreenSize(),
                audioPreferences: AudioPreferences = AudioPreferences()) {
        self.sampleRate = sampleRate
        self.audioPreferences = audioPreferences
        self.decodeCeiling = decodeCeiling
        self.screen = screen
    }

    public func open(_ channel: LineupChannel, serial: Int?, audioLanguage: String?, report: @escaping ChannelReport) -> any ChannelStream {
        ChannelPlayback(channel: channel, serial: serial, sampleRate: sampleRate, parametersCache: parametersCache,
                        audioLanguage: audioLanguage, decodeCeiling: decodeCeiling, deinterlace: deinterlace,
                        audioPreferences: audioPreferences, screen: screen, report: report)
    }

    public func setDeinterlace(_ mode: DeinterlaceMode) { deinterlace.set(mode) }

    public var warmNeighbourBytes: Int { WarmTraffic.bytes }
}

extension ChannelPlayback {
    public func followSubtitles(_ rendition: HLSRendition, url: URL, from startSequence: Int64,
                                cues: @escaping @Sendable ([SubtitleCue]) -> Void,
                                trouble: @escaping @Sendable (SubtitleTrouble) -> Void) -> any SubtitleFollower {
        SubtitleFeed(SubtitleTrack(url: url, fetcher: fetcher, startSequence: startSequence,
                                   masterVariables: trackState.masterVariables, cues: cues) { event in
            switch event {
            case .playlistFailed: trouble(.playlist(event.line))
            case .segmentFailed: trouble(.segment(event.line))
            default: break
            }
        })
    }
}

/// A subtitle track followed while it is held.
final class SubtitleFeed: SubtitleFollower {
    private let track: SubtitleTrack

    init(_ track: SubtitleTrack) {
        self.track = track
        track.start()
    }

    deinit { track.stop() }
}
