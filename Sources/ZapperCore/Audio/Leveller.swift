import Foundation

/// Even loudness: measures a channel's sound as it plays (`LoudnessMeter`, before any gain)
/// and moves a smooth gain toward what brings it to the target, under a true-peak limiter,
/// so a quiet channel and a loud one sound alike. It starts from the gain the channel had
/// last time (the player remembers it), moves only once a second of sound was measured, and
/// holds still through silence.
public struct Leveller: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Off: the sound plays as the channel sends it.
        public var enabled = true
        /// LUFS (EBU R128's -23 by default).
        public var target = -23.0
        public init(enabled: Bool = true, target: Double = -23) {
            self.enabled = enabled
            self.target = target
        }
        /// Targets a person could mean: -40…-10 LUFS.
        public static let targets = -40.0 ... -10.0
    }

    /// The gain never goes beyond this either way (dB): noise is not lifted without end.
    public static let maximumGainDB = 20.0
    /// Blocks of sound measured before the gain moves (the first at 400 ms, then one per 100 ms).
    static let settleBlocks = 8
    /// The share of the way to the wanted gain taken at each new block (100 ms).
    static let approach = 0.3

    public let target: Double
    private var meter: LoudnessMeter
    private var limiter: TruePeakLimiter
    /// The gain wanted now (dB), and the linear gain the last sample went out with.
    public private(set) var gainDB: Double
    private var applied: Float
    private var floats: [Float] = []

    public init(sampleRate: Int, target: Double, startGainDB: Double = 0) {
        self.target = target
        meter = LoudnessMeter(sampleRate: sampleRate)
        limiter = TruePeakLimiter(sampleRate: sampleRate)
        gainDB = Self.clamp(startGainDB)
        applied = Float(pow(10, gainDB / 20))
    }

    static func clamp(_ gain: Double) -> Double {
        gain.isFinite ? min(maximumGainDB, max(-maximumGainDB, gain)) : 0
    }

    /// The measured loudness of the recent sound (LUFS), when there is enough.
    public var measured: Double? { meter.integrated }

    /// Levels interleaved stereo 16-bit samples in place (they come out `TruePeakLimiter.delayFrames` later).
    public mutating func process(_ samples: inout [Int16]) {
        let frames = samples.count / 2
        guard frames > 0 else { return }
        if floats.count != frames * 2 { floats = [Float](repeating: 0, count: frames * 2) }
        for index in 0..<frames * 2 { floats[index] = Float(samples[index]) / 32768 }
        if floats.withUnsafeBufferPointer({ meter.add($0) }) > 0, meter.audibleBlocks >= Self.settleBlocks, let loudness = meter.integrated {
            gainDB += (Self.clamp(target - loudness) - gainDB) * Self.approach
        }
        let wanted = Float(pow(10, gainDB / 20))
        let step = (wanted - applied) / Float(frames)
        for frame in 0..<frames {
            let gain = applied + step * Float(frame + 1)
            floats[frame * 2] *= gain
            floats[frame * 2 + 1] *= gain
        }
        applied = wanted
        limiter.process(&floats)
        for index in 0..<frames * 2 {
            samples[index] = Int16(max(-32768, min(32767, (floats[index] * 32768).rounded())))
        }
    }
}
