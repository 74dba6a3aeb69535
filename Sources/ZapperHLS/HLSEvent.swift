import Foundation
import ZapperCore

/// What the HLS client did, for the log and for the player's decisions.
public enum HLSEvent: Sendable, Equatable {
    /// The master playlist as loaded: its variants and their audio and
    /// subtitle renditions (`master.renditions(.subtitles, group: variant.subtitlesGroup)`).
    case masterLoaded(HLSMasterPlaylist)
    /// The master was not fetched: the one fetched `age` seconds ago for this channel is used
    /// (`KnownMasters`); `stale`: it led nowhere, and is fetched again.
    case masterRemembered(url: String, age: Double, stale: Bool)
    case variantChosen(index: Int, bandwidth: Int, reason: String)
    case playlistFailed(url: String, failure: PlaybackFailure, attempt: Int)
    case playlistRecovered(url: String)
    /// `failedURL` (a variant's playlist or segment) failed; variant `index`, a redundant
    /// copy of it on another host, takes over at once. Not a failure the viewer sees.
    case backupChosen(index: Int, failedURL: String, failure: PlaybackFailure)
    case stalled(url: String, seconds: Double)
    case segmentsExpired(ClosedRange<Int64>)
    case segmentFailed(sequence: Int64, failure: PlaybackFailure)
    case segmentFetched(sequence: Int64, bytes: Int, seconds: Double, variant: Int)
    /// An EXT-X-GAP segment: not fetched, its time passes without it.
    case segmentGap(sequence: Int64, duration: Double)
    /// An EXT-X-GAP segment whose time variant `variant` has whole: that one is fetched instead.
    case gapFilled(sequence: Int64, variant: Int)
    /// A cue tag (EXT-X-DATERANGE, SCTE-35) reached: told once per id and kind.
    case cue(HLSCue)
    case restarted
    /// The URL answered with a raw MPEG-TS stream (`url`: the one that answered, after redirects).
    case rawStream(url: String)
    /// A raw MPEG-TS stream's connection ended (the body's end, a reset); it is opened again after `reconnectIn` seconds.
    case streamEnded(url: String, reason: String, reconnectIn: Double)
    /// Opening a raw MPEG-TS stream again failed.
    case streamFailed(url: String, failure: PlaybackFailure, attempt: Int)
    /// A raw MPEG-TS stream flows again (after `attempt` failures).
    case streamResumed(url: String, attempt: Int)
    /// The URL answered with neither HLS nor MPEG-TS: the failure says what it was.
    case notAStream(PlaybackFailure)
    /// A warm neighbour keeps the head (key frame) of each new segment of variant `index`
    /// (`WarmHeadPlan`), or (index nil) cannot, for `reason`, and follows the lowest variant whole.
    case warmHeads(index: Int?, reason: String)

    /// One line for a person reading the log.
    public var line: String {
        switch self {
        case let .masterLoaded(master):
            "master playlist: \(master.variants.count) variants; audio \(Self.languages(master, .audio)); subtitles \(Self.languages(master, .subtitles))"
        case let .masterRemembered(url, age, stale):
            stale ? "the master playlist remembered for \(url) leads nowhere now; fetching it again"
                : "master playlist of \(url) as fetched \(Int(age)) s ago (not fetched again)"
        case let .variantChosen(index, bandwidth, reason): "variant \(index) (\(bandwidth / 1000) kbit/s): \(reason)"
        case let .playlistFailed(url, failure, attempt): "playlist \(url) failed (attempt \(attempt)): \(failure)"
        case let .playlistRecovered(url): "playlist \(url) is back"
        case let .backupChosen(index, url, failure): "\(url) failed (\(failure)); its backup, variant \(index), takes over"
        case let .stalled(url, seconds): "playlist \(url) has not moved for \(Int(seconds)) s"
        case let .segmentsExpired(range): "segments \(range.lowerBound)…\(range.upperBound) left the playlist before they were fetched; skipped"
        case let .segmentFailed(sequence, failure): "segment \(sequence) skipped: \(failure)"
        case let .segmentFetched(sequence, bytes, seconds, variant):
            "segment \(sequence) of variant \(variant): \(bytes) bytes in \(Int(seconds * 1000)) ms"
        case let .segmentGap(sequence, duration): "segment \(sequence) is a gap (EXT-X-GAP): \(duration) s not fetched"
        case let .gapFilled(sequence, variant): "segment \(sequence) is a gap (EXT-X-GAP): variant \(variant)'s stands in"
        case .restarted: "the playlist started over; following its live edge"
        case let .cue(cue): "cue \(cue.kind.rawValue) \(cue.id)\(cue.duration.map { " (\($0) s)" } ?? "")"
        case let .rawStream(url): "\(url) answers a raw MPEG-TS stream"
        case let .streamEnded(url, reason, wait): "MPEG-TS stream \(url) ended (\(reason)); reconnecting in \(wait) s"
        case let .streamFailed(url, failure, attempt): "MPEG-TS stream \(url) failed to reopen (attempt \(attempt)): \(failure)"
        case let .streamResumed(url, attempt): "MPEG-TS stream \(url) flows again (after \(attempt) failed attempts)"
        case let .notAStream(failure): "not a stream: \(failure)"
        case let .warmHeads(index?, reason): "kept warm by the head of each new segment of variant \(index): \(reason)"
        case let .warmHeads(nil, reason): "kept warm by whole segments of the lowest variant: \(reason)"
        }
    }

    /// What this event means to the viewer, when it is a failure worth telling: a playlist
    /// that failed (its first attempt, then every fifth), a segment skipped, a live edge stuck.
    public var failure: PlaybackFailure? {
        switch self {
        case let .playlistFailed(url, failure, attempt) where attempt == 1 || attempt % 5 == 0,
             let .streamFailed(url, failure, attempt) where attempt == 1 || attempt % 5 == 0:
            failure.detail.hasPrefix(url) ? failure : failure.at(url)
        case let .notAStream(failure): failure
        case let .segmentFailed(sequence, failure): failure.at("segment \(sequence)")
        case let .stalled(url, seconds): PlaybackFailure(.stalled, "\(url): the live playlist has not moved for \(Int(seconds)) s")
        default: nil
        }
    }

    private static func languages(_ master: HLSMasterPlaylist, _ type: HLSRendition.MediaType) -> String {
        let names = master.renditions.filter { $0.type == type }.map { $0.language ?? $0.name }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

/// One media segment on its way to the demuxer: its place in the stream,
/// its container, and its bytes as they arrive. A fragmented MP4 segment's
/// bytes begin with its initialization section (EXT-X-MAP), so each
/// segment opens on its own: `Demuxer(queue: bytes, container: container)`.
public struct HLSSegmentDelivery: Sendable {
    public let sequence: Int64
    public let discontinuitySequence: Int64
    public let duration: Double
    public let programDate: Date?
    public let variant: Int
    public let container: SegmentContainer
    public let bytes: ByteQueue
    /// A raw stream's connection rather than a segment: no discontinuity tags tell its clock's jumps.
    public var isStream = false
    /// A warm neighbour's head of the segment (its first key frame whole): `bytes` is not
    /// finished, and the rest follows if the channel is promoted.
    public var keptHead = false
}
