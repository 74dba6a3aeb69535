import Foundation
import Synchronization
import ZapperCore
import ZapperHLS

/// One channel's chosen subtitles: a SubtitleTrack following the rendition's
/// live playlist, and the cues it delivered, shown while the audio clock is
/// inside them. Cue times are stream times; the playback's timeline offset
/// of the cue's discontinuity puts them on the clock.
final class SubtitlePlayer {
    let channel: Int
    let rendition: HLSRendition
    private let track: SubtitleTrack
    private let cues = CueBuffer()

    init(channel: Int, rendition: HLSRendition, url: URL, fetcher: HTTPFetcher, startSequence: Int64, log: EventLog) {
        self.channel = channel
        self.rendition = rendition
        let cues = self.cues
        // A failing playlist is told on each report; a failing segment (a hostile cue file comes
        // every two seconds) once for the track.
        let segmentFailureTold = Mutex(false)
        track = SubtitleTrack(url: url, fetcher: fetcher, startSequence: startSequence, cues: { cues.add($0) }) { event in
            switch event {
            case .playlistFailed:
                log.emit(.subtitlesFailed(channel: channel, error: event.line, said: false))
            case .segmentFailed:
                let first = segmentFailureTold.withLock { told in
                    defer { told = true }
                    return !told
                }
                if first {
                    log.emit(.subtitlesFailed(channel: channel, error: event.line, said: true))
                }
            default:
                break
            }
        }
        track.start()
    }

    deinit { track.stop() }

    /// The lines of the cues showing at `clock` (timeline seconds).
    func lines(at clock: Double, tracks: ChannelTracks) -> [String] {
        cues.showing(at: clock) { tracks.offset(discontinuity: $0) }
            .flatMap { $0.text.split(separator: "\n").map(String.init) }
    }
}

/// Cues from the track's task, read by the loop; old ones are let go.
private final class CueBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var cues: [SubtitleCue] = []

    func add(_ new: [SubtitleCue]) {
        lock.withLock {
            cues += new
            if cues.count > 200 { cues.removeFirst(cues.count - 200) }
        }
    }

    func showing(at clock: Double, offset: (Int64) -> Double?) -> [SubtitleCue] {
        lock.withLock {
            cues.filter { cue in
                guard let offset = offset(cue.discontinuitySequence) else { return false }
                // Stream times wrap at 2^33 ticks of 90 kHz: take the turn nearest the clock.
                let start = WebVTTParser.unwrap(cue.start, near: clock - offset) + offset
                return start <= clock && clock < start + (cue.end - cue.start)
            }
        }
    }
}
