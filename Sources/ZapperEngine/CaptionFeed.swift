import Foundation
import ZapperCore
import ZapperMedia

/// A playback's closed captions: the loop asks for a service, the decode thread
/// feeds each picture's caption data (in display order, at its timeline time)
/// to its decoder (libavcodec's for CEA-608, ours for a CEA-708 service) and keeps
/// the screens it gives, the loop takes the screen due at the audio clock.
final class CaptionFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var wanted: CaptionChannel?
    private var generation = 0
    /// Screens in timeline order: from `time` on, `lines` are shown (empty: nothing).
    private var screens: [(time: Double, lines: [String])] = []
    static let keptScreens = 64

    // The decode thread's own.
    private enum Decoder {
        case cea608(CaptionDecoder)
        case cea708(CEA708Decoder)
    }
    private var decoder: Decoder?
    private var decoderGeneration = -1
    private var seen608 = false
    private var seen708 = false

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
        if let data, !(seen608 && seen708) {
            let kinds = Self.kinds(data)
            if (kinds.cea608 && !seen608) || (kinds.cea708 && !seen708) {
                seen608 = seen608 || kinds.cea608
                seen708 = seen708 || kinds.cea708
                tracks.sawCaptions(cea608: kinds.cea608, cea708: kinds.cea708)
            }
        }
        let (channel, current) = lock.withLock { (wanted, generation) }
        if current != decoderGeneration {
            decoderGeneration = current
            switch channel {
            case .cea608(let number)?: decoder = (try? CaptionDecoder(.cea608(number))).map(Decoder.cea608)
            case .cea708(let service)?: decoder = .cea708(CEA708Decoder(service: service))
            case nil: decoder = nil
            }
        }
        guard let decoder, time.isFinite, abs(time) < 1e9 else { return }
        let found: [[String]]
        switch decoder {
        case .cea608(let cea608):
            found = (try? cea608.decode(data ?? [], milliseconds: Int64((time * 1000).rounded()))) ?? []
        case .cea708(var cea708):
            found = cea708.decode(data ?? []).map { [$0] } ?? []
            self.decoder = .cea708(cea708)
        }
        guard !found.isEmpty else { return }
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
        switch decoder {
        case .cea608(let cea608): cea608.flush()
        case .cea708(var cea708):
            cea708.reset()
            self.decoder = .cea708(cea708)
        }
        guard let time else { return }
        lock.withLock {
            guard generation == decoderGeneration else { return }
            screens.append((time, []))
            if screens.count > Self.keptScreens { screens.removeFirst(screens.count - Self.keptScreens) }
        }
    }

    /// Whether valid CEA-608 pairs (not padding) and CEA-708 packet data are among the triplets.
    static func kinds(_ data: [UInt8]) -> (cea608: Bool, cea708: Bool) {
        var kinds = (cea608: false, cea708: false)
        for start in stride(from: 0, to: data.count - data.count % 3, by: 3) where data[start] & 0x04 != 0 {
            if data[start] & 0x03 >= 2 {
                kinds.cea708 = true
            } else if data[start + 1] & 0x7F != 0 || data[start + 2] & 0x7F != 0 {
                kinds.cea608 = true
            }
        }
        return kinds
    }
}
