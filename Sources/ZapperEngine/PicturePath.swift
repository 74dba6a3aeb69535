import Foundation
import Synchronization
import ZapperCore
import ZapperMedia

/// Whether pictures coded as fields are deinterlaced (the Picture tab's Deinterlace: Auto
/// or Off), read by every playback's decode thread at each picture; and the box's judgement
/// of the picture size it cannot deinterlace at field rate in time (`PicturePath`).
public final class DeinterlaceSwitch: Sendable {
    private let on = Atomic<Bool>(true)
    /// The size found too slow at field rate: from then on, while it holds, one picture a frame.
    let fieldRate: SpeedJudgement

    public init(_ mode: DeinterlaceMode = .auto, firstHold: Double = SpeedVerdict.firstHold,
                now: @escaping @Sendable () -> Double = { SystemClock().monotonic }) {
        fieldRate = SpeedJudgement(firstHold: firstHold, now: now) { size, held in
            FileHandle.standardError.write(Data("zapper: pictures as large as \(size) are deinterlaced at field rate again: the judgement that this box is too slow for it lapsed after \(held)\n".utf8))
        }
        set(mode)
    }

    public func set(_ mode: DeinterlaceMode) { on.store(mode == .auto, ordering: .relaxed) }

    public var mode: DeinterlaceMode { on.load(ordering: .relaxed) ? .auto : .off }
}

/// A playback's pictures between its video decoders and its queue: each stream's
/// pictures coded as fields go through a `Deinterlacer` (at field rate: twice as many
/// pictures, each with the filter's own time), from the first such picture on; a stream
/// that never sends one is passed as decoded. The warm head's key frame, shown ahead of
/// the stream as a still, is not shown again when the decoder's own copy of it comes.
///
/// Field rate is the first thing to give on a box too slow for it: a window of pictures
/// whose decoding and deinterlacing took more than `busyShare` of their play time on the
/// decode thread turns that stream to one picture a frame, and the box's judgement
/// (`DeinterlaceSwitch.fieldRate`) keeps later channels of that size at frame rate while it
/// holds, before the decoder's threads or the variant ceiling are judged (they need two windows).
struct PicturePath {
    let choice: DeinterlaceSwitch
    static let busyShare = 0.9
    private var deinterlacers: [Int32: Deinterlacer] = [:]
    private var loads: [Int32: (load: DecodeLoad, seen: Double)] = [:]
    /// The still's time in its stream (seconds, before the timeline's offset).
    private var skipped: Double?
    /// Each stream's last move from its own time onto the timeline.
    private var shifts: [Int32: Double] = [:]

    init(choice: DeinterlaceSwitch) { self.choice = choice }

    /// The pictures to show for one decoded `frame` of `stream`, placed on the timeline at
    /// `time`: each with its time there (a deinterlaced field keeps its picture's place, moved
    /// by the field's own time).
    mutating func pictures(for frame: Frame, stream: Int32, timeBase: (numerator: Int32, denominator: Int32),
                           at time: Double) throws -> [(Frame, Double)] {
        let shift = time - (Self.seconds(frame, timeBase) ?? time)
        shifts[stream] = shift
        var out: [(Frame, Double?)]
        if choice.mode == .off {
            out = try held(stream: stream)
            deinterlacers[stream] = nil
            out.append((frame, Self.seconds(frame, timeBase)))
        } else if let deinterlacer = deinterlacers[stream] ?? (Deinterlacer.isInterlaced(frame) ? Deinterlacer(rate: rate(for: frame)) : nil) {
            deinterlacers[stream] = deinterlacer
            out = try deinterlacer.push(frame, timeBase: timeBase).map { ($0, Self.seconds($0, deinterlacer.timeBase)) }
        } else {
            out = [(frame, Self.seconds(frame, timeBase))]
        }
        return out.compactMap { picture, seconds in isSkipped(seconds) ? nil : (picture, seconds.map { $0 + shift } ?? time) }
    }

    /// The pictures a stream's deinterlacer still holds (a discontinuity, a decoder replaced), with their times.
    mutating func drain(stream: Int32) throws -> [(Frame, Double)] {
        let shift = shifts[stream] ?? 0
        return try held(stream: stream).compactMap { picture, seconds in
            guard !isSkipped(seconds), let seconds else { return nil }
            return (picture, seconds + shift)
        }
    }

    private mutating func held(stream: Int32) throws -> [(Frame, Double?)] {
        guard let deinterlacer = deinterlacers[stream] else { return [] }
        return try deinterlacer.drain().map { ($0, Self.seconds($0, deinterlacer.timeBase)) }
    }

    /// A key frame decoded alone to be shown ahead of its stream: deinterlaced on its own
    /// (its first field) when it is coded as fields; the same picture is then not shown again.
    mutating func still(_ frame: Frame, timeBase: (numerator: Int32, denominator: Int32)) -> Frame {
        skipped = Self.seconds(frame, timeBase)
        guard choice.mode == .auto, Deinterlacer.isInterlaced(frame) else { return frame }
        let alone = Deinterlacer()
        let fields = ((try? alone.push(frame, timeBase: timeBase)) ?? []) + ((try? alone.drain()) ?? [])
        return fields.first ?? frame
    }

    /// Whether a stream is deinterlaced at field rate now (two pictures a frame).
    var givesFields: Bool { deinterlacers.values.contains { $0.rate == .field } }

    /// Seconds the deinterlacers have taken on `stream` so far (the speed judgements count them).
    func busySeconds(stream: Int32) -> Double { deinterlacers[stream]?.busySeconds ?? 0 }

    /// Field rate, unless the box was found too slow for pictures this large.
    private func rate(for frame: Frame) -> Deinterlacer.Rate {
        guard let pixels = choice.fieldRate.pixels else { return .field }
        return frame.width * frame.height >= pixels ? .frame : .field
    }

    /// Counts a decoded picture of `stream` (`busySeconds`: its decoder's and deinterlacer's
    /// together so far; `time`: its time in the stream); true when the stream has just been
    /// turned to frame rate, as the box was too slow for field rate (said in the log).
    mutating func judge(stream: Int32, busySeconds: Double, picture frame: Frame, time: Double?, channel: Int) -> Bool {
        guard let deinterlacer = deinterlacers[stream], deinterlacer.rate == .field else {
            loads[stream] = nil
            return false
        }
        var entry = loads[stream] ?? (DecodeLoad(window: 50, busyShare: Self.busyShare), busySeconds)
        let share = entry.load.closes(afterRecording: busySeconds - entry.seen, time: time)
        entry.seen = busySeconds
        loads[stream] = entry
        guard let share, share > Self.busyShare else { return false }
        deinterlacer.setRate(.frame)
        loads[stream] = nil
        let held = choice.fieldRate.tooSlow(width: frame.width, height: frame.height).map { " for \($0)" } ?? ""
        FileHandle.standardError.write(Data("zapper: channel \(channel): decoding and deinterlacing \(frame.width)x\(frame.height) at field rate took \(Int(share * 100)) % of the time here; one picture a frame from now on\(held)\n".utf8))
        return true
    }

    private mutating func isSkipped(_ seconds: Double?) -> Bool {
        guard let skipped, let seconds, abs(seconds - skipped) < 0.0005 else { return false }
        self.skipped = nil
        return true
    }

    private static func seconds(_ frame: Frame, _ base: (numerator: Int32, denominator: Int32)) -> Double? {
        frame.pts.flatMap { StreamTime.seconds($0, numerator: base.numerator, denominator: base.denominator) }
    }
}
