import Foundation
import Synchronization
import ZapperCore

/// One channel's chosen subtitles: the stream follows the rendition's live
/// playlist and delivers its cues, shown while the audio clock is inside them.
/// Cue times are stream times; the stream's timeline offset of the cue's
/// discontinuity puts them on the clock.
final class SubtitlePlayer {
    let channel: Int
    let rendition: HLSRendition
    private let cues = CueBuffer()
    private var follower: (any SubtitleFollower)?

    init(channel: Int, rendition: HLSRendition, url: URL, stream: any ChannelStream, startSequence: Int64, log: EventLog) {
        self.channel = channel
        self.rendition = rendition
        let cues = self.cues
        // A failing playlist is told on each report; a failing segment (a hostile cue file comes
        // every two seconds) once for the track.
        let segmentFailureTold = Mutex(false)
        follower = stream.followSubtitles(rendition, url: url, from: startSequence, cues: { cues.add($0) }) { trouble in
            switch trouble {
            case .playlist(let line):
                log.emit(.subtitlesFailed(channel: channel, error: line, said: false))
            case .segment(let line):
                let first = segmentFailureTold.withLock { told in
                    defer { told = true }
                    return !told
                }
                if first {
                    log.emit(.subtitlesFailed(channel: channel, error: line, said: true))
                }
            }
        }
    }

    /// The lines of the cues showing at `clock` (timeline seconds).
    func lines(at clock: Double, tracks: any ChannelTrackList) -> [String] {
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
