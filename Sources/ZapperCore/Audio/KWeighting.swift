import Foundation

/// ITU-R BS.1770's K-weighting: a high shelf (the head's effect) and then a high-pass
/// (the RLB curve), for any sample rate. The two stages' analogue prototypes (centre
/// frequency, gain, Q) are those whose bilinear transform at 48 kHz gives the standard's
/// coefficient table; other rates transform the same prototypes.
public struct KWeighting: Sendable {
    /// One second-order section, normalised so a0 = 1.
    public struct Section: Sendable, Equatable {
        public var b0, b1, b2, a1, a2: Double
    }

    public static func shelf(sampleRate: Int) -> Section {
        let gainDB = 3.999843853973347, q = 0.7071752369554196, f0 = 1681.974450955533
        let k = tan(Double.pi * f0 / Double(sampleRate))
        let vh = pow(10, gainDB / 20)
        let vb = pow(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        return Section(b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0, b2: (vh - vb * k / q + k * k) / a0,
                       a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    public static func highPass(sampleRate: Int) -> Section {
        let q = 0.5003270373238773, f0 = 38.13547087602444
        let k = tan(Double.pi * f0 / Double(sampleRate))
        let a0 = 1 + k / q + k * k
        return Section(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    private let stages: [Section]
    /// Each stage's two state values, per channel (direct form II transposed).
    private var memory: [Double]
    public let channels: Int

    public init(sampleRate: Int, channels: Int = 2) {
        stages = [Self.shelf(sampleRate: sampleRate), Self.highPass(sampleRate: sampleRate)]
        self.channels = channels
        memory = [Double](repeating: 0, count: channels * 4)
    }

    /// The weighted value of one sample of `channel`.
    public mutating func filter(_ sample: Double, channel: Int) -> Double {
        var value = sample
        for (index, section) in stages.enumerated() {
            let at = channel * 4 + index * 2
            let out = section.b0 * value + memory[at]
            memory[at] = section.b1 * value - section.a1 * out + memory[at + 1]
            memory[at + 1] = section.b2 * value - section.a2 * out
            value = out
        }
        return value
    }

    /// Forgets the past (a new channel).
    public mutating func reset() {
        for index in memory.indices { memory[index] = 0 }
    }
}
