import Foundation
import ZapperCore
import ZapperMedia

/// A channel's audio languages and subtitles as its master playlist lists
/// them, the audio the viewer asked for, and what the subtitle timing needs
/// from the decode thread (where each discontinuity's timeline starts).
/// Written by the session's and the decode thread, read by the loop.
final class ChannelTracks: ChannelTrackList, @unchecked Sendable {
    private let lock = NSLock()
    private var master: HLSMasterPlaylist?
    private var variant = 0
    private var audioLanguages: [String]
    private var audioGeneration = 0
    private var offsets: [Int64: Double] = [:]
    private var firstSequence: Int64?
    private var pictureSequence: Int64?
    private var saw608 = false
    private var saw708 = false
    static let keptDiscontinuities = 32

    init(audioLanguage: String?) {
        audioLanguages = audioLanguage.map { [$0] } ?? []
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
    /// one), or with playlists of their own (an `AudioRenditionFeed` plays one).
    public var audioRenditions: [HLSRendition] { renditions(.audio) }
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
        lock.withLock { (audioLanguages.isEmpty ? .first : .languages(audioLanguages), audioGeneration) }
    }

    /// The audio rendition playing (`HLSMasterPlaylist.audioRendition`); nil
    /// before the master loads or when the variant names no audio group.
    public var playingAudio: HLSRendition? {
        lock.withLock {
            guard let master, master.variants.indices.contains(variant) else { return nil }
            return master.audioRendition(for: master.variants[variant], languages: audioLanguages)
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

    func requestAudio(language: String) {
        lock.withLock {
            audioLanguages = [language]
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
