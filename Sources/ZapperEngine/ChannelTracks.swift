import Foundation
import ZapperCore
import ZapperMedia

/// A channel's audio languages and subtitles as its master playlist lists
/// them (a raw MPEG-TS, which has none: the audio PIDs its PMT lists, with their
/// languages and audio types), the audio the viewer asked for (`AudioTrackPick`, with
/// the box's preferences), and what the subtitle timing needs from the decode
/// thread (where each discontinuity's timeline starts).
/// Written by the session's and the decode thread, read by the loop.
final class ChannelTracks: ChannelTrackList, @unchecked Sendable {
    private let lock = NSLock()
    private var master: HLSMasterPlaylist?
    private var variant = 0
    /// The viewer's choice for the channel (a track's name or a language), and the box's preferences.
    private var chosenAudio: String?
    private let preferences: AudioPreferences
    /// A stream without a master: its audio PIDs and the one the demuxer reads (decode thread).
    private var streamAudio: [AudioStream] = []
    private var streamSelected: Int?
    private var audioGeneration = 0
    private var offsets: [Int64: Double] = [:]
    private var firstSequence: Int64?
    private var pictureSequence: Int64?
    private var saw608 = false
    private var saw708 = false
    static let keptDiscontinuities = 32

    init(audioLanguage: String?, preferences: AudioPreferences = AudioPreferences()) {
        chosenAudio = audioLanguage
        self.preferences = preferences
    }

    func loaded(_ master: HLSMasterPlaylist) { lock.withLock { self.master = master } }
    func chose(variant index: Int) { lock.withLock { variant = index } }

    private func renditions(_ type: HLSRendition.MediaType) -> [HLSRendition] {
        lock.withLock {
            guard let master, master.variants.indices.contains(variant) else { return [] }
            let chosen = master.variants[variant]
            return master.renditions(type, group: type == .audio ? chosen.audioGroup : chosen.subtitlesGroup)
        }
    }

    /// The variant's audio languages: carried in its own stream (the demuxer picks
    /// one), or with playlists of their own (an `AudioRenditionFeed` plays one). Without a
    /// master (a raw MPEG-TS), its audio PIDs, as renditions carried in the stream.
    public var audioRenditions: [HLSRendition] {
        if lock.withLock({ master == nil }) { return lock.withLock { Self.renditions(of: streamAudio) } }
        return renditions(.audio)
    }

    /// A stream's audio PIDs as renditions in it (no URI), named for the panel.
    private static func renditions(of streams: [AudioStream]) -> [HLSRendition] {
        zip(streams, AudioStream.tracks(streams)).map { stream, track in
            var rendition = HLSRendition(type: .audio, groupID: "pmt", name: track.name)
            rendition.language = stream.language
            rendition.describesVideo = stream.isDescription
            return rendition
        }
    }

    /// A raw stream's DVB subtitle streams, as the Subtitles tab lists them.
    private var streamSubtitles: [BitmapSubtitleTrack] = []
    public var bitmapSubtitleTracks: [BitmapSubtitleTrack] { lock.withLock { streamSubtitles } }

    /// The decode thread: the demuxer's DVB subtitle streams.
    func streamSubtitles(_ streams: [SubtitleStream]) {
        let tracks = BitmapSubtitleFeed.tracks(streams)
        lock.withLock { streamSubtitles = tracks }
    }

    /// The decode thread: the demuxer's audio streams and the one it reads.
    func streamAudio(_ streams: [AudioStream], selected: Int?) {
        lock.withLock {
            streamAudio = streams
            streamSelected = selected
        }
    }
    public var subtitleRenditions: [HLSRendition] { renditions(.subtitles).filter { $0.uri != nil } }

    /// The variant's closed captions as the master names them (CEA-608 CC1–CC4, CEA-708
    /// services). A master that says nothing (no CLOSED-CAPTIONS, not NONE), or a raw stream
    /// without one, gets CC1 and SERVICE1 once the pictures have been seen carrying their data.
    public var captionTracks: [CaptionTrack] {
        lock.withLock {
            var seen: [CaptionTrack] = []
            if saw608 { seen.append(CaptionTrack(channel: .cea608(1), name: "CC1")) }
            if saw708 { seen.append(CaptionTrack(channel: .cea708(service: 1), name: "SERVICE1")) }
            // A raw MPEG-TS stream (no master) offers what its pictures carry.
            guard let master else { return seen }
            guard master.variants.indices.contains(variant) else { return [] }
            let chosen = master.variants[variant]
            let named = master.captionTracks(for: chosen)
            if named.isEmpty, chosen.closedCaptions == .unspecified { return seen }
            return named
        }
    }

    /// The decode thread: the pictures carry CEA-608 data, CEA-708 data, or both.
    func sawCaptions(cea608: Bool, cea708: Bool) {
        lock.withLock {
            saw608 = saw608 || cea608
            saw708 = saw708 || cea708
        }
    }

    /// The audio asked for, and a number that changes with each new request.
    var audioRequest: (choice: AudioChoice, generation: Int) {
        lock.withLock {
            // A rendition in the variant's stream: the stream of its language and kind.
            if let master, master.variants.indices.contains(variant),
               let rendition = master.audioRendition(for: master.variants[variant], chosen: chosenAudio, preferences: preferences),
               rendition.uri == nil, let language = rendition.language {
                return (.pick(chosen: language, preferences: AudioPreferences(audioDescription: rendition.describesVideo)), audioGeneration)
            }
            return (.pick(chosen: chosenAudio, preferences: preferences), audioGeneration)
        }
    }

    /// The audio rendition playing (`HLSMasterPlaylist.audioRendition`); nil
    /// before the master loads or when the variant names no audio group.
    public var playingAudio: HLSRendition? {
        lock.withLock {
            guard let master else {
                // A raw stream: the PID the demuxer reads.
                guard let selected = streamSelected, let position = streamAudio.firstIndex(where: { $0.index == selected }) else { return nil }
                return Self.renditions(of: streamAudio)[position]
            }
            guard master.variants.indices.contains(variant) else { return nil }
            return master.audioRendition(for: master.variants[variant], chosen: chosenAudio, preferences: preferences)
        }
    }

    /// The master's EXT-X-DEFINE variables, which its renditions' playlists may IMPORT.
    var masterVariables: HLSVariables? { lock.withLock { master?.variables } }

    /// The fewest pixels of any variant's pictures (nil: no master, or no variant says its size).
    var smallestPicture: Int? {
        lock.withLock { master.map { VariantLadder($0.variants).pixels.compactMap { $0 }.min() } ?? nil }
    }

    /// The playlist of the playing audio when it is not in the picture's stream.
    var separateAudio: URL? { playingAudio?.uri }

    /// The viewer chose a track: its name, or its language (`AudioTrackPick.remembered`).
    func requestAudio(language: String) {
        lock.withLock {
            chosenAudio = language
            audioGeneration += 1
        }
    }

    /// The decode thread: discontinuity `sequence`'s stream times + `offset` are timeline times.
    func timeline(discontinuity sequence: Int64, offset: Double, segment: Int64) {
        lock.withLock {
            offsets[sequence] = offset
            // A channel that plays for months passes a discontinuity every few minutes: keep the recent ones.
            if offsets.count > Self.keptDiscontinuities, let oldest = offsets.keys.min() { offsets[oldest] = nil }
            if firstSequence == nil { firstSequence = segment }
            pictureSequence = segment
        }
    }

    public func offset(discontinuity sequence: Int64) -> Double? { lock.withLock { offsets[sequence] } }

    enum TimelinePlace: Equatable {
        case offset(Double)
        /// The picture has moved on to a later discontinuity.
        case passed
        /// The picture has not reached it yet.
        case notYet
    }

    /// Where a separate rendition's discontinuity `sequence` goes on the timeline.
    func place(discontinuity sequence: Int64) -> TimelinePlace {
        lock.withLock {
            if let offset = offsets[sequence] { return .offset(offset) }
            return offsets.keys.contains { $0 > sequence } ? .passed : .notYet
        }
    }

    /// The media sequence of the segment whose pictures are being decoded.
    var decodingSequence: Int64? { lock.withLock { pictureSequence } }

    /// The first media sequence decoded (subtitles start there).
    public var startSequence: Int64? { lock.withLock { firstSequence } }
}
