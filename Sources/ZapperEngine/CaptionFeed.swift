import Foundation
import ZapperCore
import ZapperMedia

/// A playback's closed captions: the loop asks for a service, the decode thread
/// feeds each picture's caption data (in display order, at its timeline time)
/// to libavcodec's 608 decoder and keeps the screens it gives, the loop takes
/// the screen due at the audio clock.
final class CaptionFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var wanted: CaptionChannel?
    private var generation = 0
    /// Screens in timeline order: from `time` on, `lines` are shown (empty: nothing).
    private var screens: [(time: Double, lines: [String])] = []
    static let keptScreens = 64

    // The decode thread's own.
    private var decoder: CaptionDecoder?
    private var decoderGeneration = -1
    private var seen = false

    func choose(_ channel: CaptionChannel?) {
        lock.withLock {
            guard channel != wanted else { return }
            wanted = channel
            generation += 1
            screens.removeAll()
        }
    }

    /// The lines due at `time`: the newest screen not after it (older ones are let go).
    func lines(at time: Double) -> [String] {
        lock.withLock {
            guard let due = screens.lastIndex(where: { $0.time <= time }) else { return [] }
            screens.removeFirst(due)
            return screens[0].lines
        }
    }

    /// The decode thread: a picture at timeline `time`.
    func picture(_ frame: Frame, at time: Double, tracks: ChannelTracks) {
        let data = frame.closedCaptionData
        if data != nil, !seen {
            seen = true
            tracks.sawCaptions()
        }
        let (channel, current) = lock.withLock { (wanted, generation) }
        if current != decoderGeneration {
            decoderGeneration = current
            // A service nothing decodes (708) shows nothing.
            decoder = channel.flatMap { try? CaptionDecoder($0) }
        }
        guard let decoder, time.isFinite, abs(time) < 1e9 else { return }
        guard let found = try? decoder.decode(data ?? [], milliseconds: Int64((time * 1000).rounded())), !found.isEmpty else { return }
        lock.withLock {
            guard generation == current else { return }
            // A picture gives one screen: the last change it made.
            if let last = screens.last, last.time >= time { screens.removeAll { $0.time >= time } }
            screens.append((time, found[found.count - 1]))
            if screens.count > Self.keptScreens { screens.removeFirst(screens.count - Self.keptScreens) }
        }
    }

    /// The decode thread: a discontinuity begins a new stream; what was on screen goes.
    func discontinuity(at time: Double?) {
        guard let decoder else { return }
        decoder.flush()
        guard let time else { return }
        lock.withLock {
            guard generation == decoderGeneration else { return }
            screens.append((time, []))
            if screens.count > Self.keptScreens { screens.removeFirst(screens.count - Self.keptScreens) }
        }
    }
}
