import Foundation

/// Loudness as EBU R128 measures it (ITU-R BS.1770): K-weighted mean square over 400 ms
/// blocks that start every 100 ms. `momentary` is the newest block's loudness; `integrated`
/// gates the blocks of the last `window` (absolute gate -70 LUFS, then relative gate 10 LU
/// below their mean), so a channel that plays for months is judged by its recent sound and
/// the meter's memory stays bounded.
public struct LoudnessMeter: Sendable {
    public static let absoluteGate = -70.0
    public static let relativeGate = -10.0

    private var weighting: KWeighting
    private let hopFrames: Int
    /// The current 100 ms hop: its sum of weighted squares (all channels) and frames so far.
    private var hopSum = 0.0
    private var hopFill = 0
    /// The last four hops' mean squares: one 400 ms block.
    private var hops: [Double] = []
    /// The blocks of the last `window`, oldest first (mean squares), as a ring.
    private var blocks: [Double] = []
    private var next = 0
    private let window: Int
    public private(set) var momentary: Double?
    /// Blocks measured since the start (or the last reset).
    public private(set) var blockCount = 0

    /// `windowSeconds`: how far back `integrated` looks.
    public init(sampleRate: Int, channels: Int = 2, windowSeconds: Int = 20) {
        weighting = KWeighting(sampleRate: sampleRate, channels: channels)
        hopFrames = max(1, sampleRate / 10)
        window = max(1, windowSeconds) * 10
    }

    /// BS.1770's loudness of a mean square (summed over the channels).
    public static func lufs(meanSquare: Double) -> Double {
        meanSquare > 0 ? -0.691 + 10 * log10(meanSquare) : -.infinity
    }

    /// Measures interleaved samples (-1…1); returns how many blocks were completed.
    @discardableResult
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let channels = weighting.channels
        var completed = 0
        var index = 0
        while index + channels <= samples.count {
            for channel in 0..<channels {
                let weighted = weighting.filter(Double(samples[index + channel]), channel: channel)
                hopSum += weighted * weighted
            }
            index += channels
            hopFill += 1
            if hopFill == hopFrames {
                endHop()
                completed += hops.count == 4 ? 1 : 0
            }
        }
        return completed
    }

    private mutating func endHop() {
        hops.append(hopSum / Double(hopFrames))
        if hops.count > 4 { hops.removeFirst() }
        hopSum = 0
        hopFill = 0
        guard hops.count == 4 else { return }
        let block = hops.reduce(0, +) / 4
        momentary = Self.lufs(meanSquare: block)
        if blocks.count < window {
            blocks.append(block)
        } else {
            blocks[next] = block
            next = (next + 1) % window
        }
        blockCount += 1
    }

    /// The gated loudness of the last `window`; nil while no block passes the gates.
    public var integrated: Double? {
        let audible = blocks.filter { Self.lufs(meanSquare: $0) > Self.absoluteGate }
        guard !audible.isEmpty else { return nil }
        let threshold = Self.lufs(meanSquare: audible.reduce(0, +) / Double(audible.count)) + Self.relativeGate
        let gated = audible.filter { Self.lufs(meanSquare: $0) > threshold }
        guard !gated.isEmpty else { return nil }
        return Self.lufs(meanSquare: gated.reduce(0, +) / Double(gated.count))
    }

    /// Blocks of the window that pass the absolute gate (how much sound `integrated` rests on).
    public var audibleBlocks: Int { blocks.count { Self.lufs(meanSquare: $0) > Self.absoluteGate } }

    /// Forgets everything measured.
    public mutating func reset() {
        weighting.reset()
        hopSum = 0
        hopFill = 0
        hops = []
        blocks = []
        next = 0
        momentary = nil
        blockCount = 0
    }
}
