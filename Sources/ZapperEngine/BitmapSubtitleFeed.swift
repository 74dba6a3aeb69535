import Foundation
import ZapperCore
import ZapperMedia

/// A playback's DVB subtitles: the track the viewer chose (set by the loop), the pages the
/// decode thread decoded from it (on the timeline), and the one on screen (asked by the loop).
final class BitmapSubtitleFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var wanted: BitmapSubtitleTrack?
    private var generation = 0
    private var queue = SubtitleBitmapQueue()

    /// Another track (nil: none): what was decoded of the old one goes.
    func choose(_ track: BitmapSubtitleTrack?) {
        lock.withLock {
            guard track != wanted else { return }
            wanted = track
            generation += 1
            queue.removeAll()
        }
    }

    /// The track asked for, and a number that changes with each new request.
    var request: (track: BitmapSubtitleTrack?, generation: Int) { lock.withLock { (wanted, generation) } }

    /// A page decoded for request `generation`, its times on the timeline.
    func add(_ page: SubtitleBitmapQueue.Timed, generation: Int) {
        lock.withLock {
            guard generation == self.generation else { return }
            queue.add(page)
        }
    }

    func showing(at time: Double) -> SubtitleBitmap? { lock.withLock { queue.showing(at: time) } }

    /// The stream of `streams` that `track` names: of its kind (DVB, or teletext: the same
    /// page first), the same language (and hearing), else nil.
    static func stream(for track: BitmapSubtitleTrack?, in streams: [SubtitleStream]) -> SubtitleStream? {
        guard let track else { return nil }
        let kind = streams.filter { ($0.teletextPage == nil) == (track.teletextPage == nil) }
        return kind.first { $0.teletextPage == track.teletextPage && $0.language == track.language && $0.hearingImpaired == track.hearingImpaired }
            ?? kind.first { $0.language == track.language && $0.hearingImpaired == track.hearingImpaired }
            ?? kind.first { $0.language == track.language }
    }

    /// The streams as the Subtitles tab lists them.
    static func tracks(_ streams: [SubtitleStream]) -> [BitmapSubtitleTrack] {
        streams.enumerated().map { position, stream in
            let base = stream.language.flatMap { LanguageCode.name($0) ?? ($0.isEmpty ? nil : $0) } ?? "Subtitles \(position + 1)"
            let notes = [stream.hearingImpaired ? "hard of hearing" : nil, stream.teletextPage != nil ? "teletext" : nil].compactMap { $0 }
            return BitmapSubtitleTrack(name: notes.isEmpty ? base : "\(base) (\(notes.joined(separator: ", ")))",
                                       language: stream.language, hearingImpaired: stream.hearingImpaired, teletextPage: stream.teletextPage)
        }
    }
}
