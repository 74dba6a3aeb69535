import Foundation

/// Keeps stereo sound under a ceiling in true peak (ITU-R BS.1770 Annex 2): each sample's
/// peak is estimated between samples too, at four times the rate (windowed-sinc
/// interpolation), and the gain drops before a peak arrives (a short look-ahead) and
/// recovers smoothly after it (`releaseSeconds`). The sound comes out `delayFrames` late.
public struct TruePeakLimiter: Sendable {
    /// Interpolation taps either side of a sample.
    static let reach = 6
    /// Frames either side of a peak already held down.
    static let hold = 2
    public static let delayFrames = reach + hold

    public let ceiling: Float
    /// Per phase 1…3 (a quarter, half, three quarters past a sample): taps for samples -5…+6.
    private let phases: [[Float]]
    /// Recent input frames (interleaved stereo), newest last: enough for interpolation and the hold.
    private var history: [Float]
    /// The gain each of the last frames needs, newest last.
    private var needed: [Float]
    private var gain: Float = 1
    private let release: Float
    /// No interpolated value exceeds the loudest sample around it times this (the taps' absolute sum).
    private let overshoot: Float
    public private(set) var reduced = 0

    /// `ceilingDB`: the highest true peak let through (dBTP).
    public init(sampleRate: Int, ceilingDB: Double = -1, releaseSeconds: Double = 0.2) {
        ceiling = Float(pow(10, ceilingDB / 20))
        release = Float(1 - exp(-1 / (max(0.001, releaseSeconds) * Double(max(1, sampleRate)))))
        phases = (1...3).map { phase in
            let offset = Double(phase) / 4
            let taps = (-(Self.reach - 1)...Self.reach).map { index -> Double in
                let x = offset - Double(index)
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                return sinc * 0.5 * (1 + cos(Double.pi * x / (Double(Self.reach) + 0.5)))
            }
            let sum = taps.reduce(0, +)
            return taps.map { Float($0 / sum) }
        }
        overshoot = phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 2
        history = [Float](repeating: 0, count: 2 * (2 * Self.reach + Self.hold))
        needed = [Float](repeating: 1, count: 2 * Self.hold + 1)
    }

    /// Limits interleaved stereo samples in place (each comes out `delayFrames` later).
    public mutating func process(_ samples: inout [Float]) {
        let frames = samples.count / 2
        let span = history.count / 2
        let loudest = max(samples.reduce(0) { max($0, abs($1)) }, history.reduce(0) { max($0, abs($1)) })
        if gain >= 1, loudest * overshoot <= ceiling {
            // Nothing near the ceiling, nothing held down: the sound only goes out later.
            let joined = history + samples.prefix(frames * 2)
            let late = 2 * Self.delayFrames
            for index in 0..<frames * 2 { samples[index] = joined[history.count - late + index] }
            history = Array(joined.suffix(history.count))
            for index in needed.indices { needed[index] = 1 }
            return
        }
        for frame in 0..<frames {
            history.removeFirst(2)
            history.append(samples[frame * 2])
            history.append(samples[frame * 2 + 1])
            // The frame `reach` back now has its interpolation neighbours: its peak is known.
            let at = span - 1 - Self.reach
            var peak: Float = 0
            for channel in 0..<2 {
                peak = max(peak, abs(history[at * 2 + channel]))
                for taps in phases {
                    var value: Float = 0
                    for (tap, weight) in taps.enumerated() {
                        value += weight * history[(at - (Self.reach - 1) + tap) * 2 + channel]
                    }
                    peak = max(peak, abs(value))
                }
            }
            needed.removeFirst()
            needed.append(peak > ceiling ? ceiling / peak : 1)
            // The frame `hold` further back goes out, under the lowest gain its neighbours need.
            let lowest = needed.min() ?? 1
            gain = lowest < gain ? lowest : gain + (lowest - gain) * release
            if gain > 0.9999 { gain = 1 }
            if gain < 1 { reduced += 1 }
            let out = at - Self.hold
            samples[frame * 2] = history[out * 2] * gain
            samples[frame * 2 + 1] = history[out * 2 + 1] * gain
        }
    }

    public mutating func reset() {
        for index in history.indices { history[index] = 0 }
        for index in needed.indices { needed[index] = 1 }
        gain = 1
    }
}
