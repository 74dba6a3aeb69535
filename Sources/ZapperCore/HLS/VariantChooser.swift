import Foundation

/// Estimates throughput from finished downloads: two exponentially weighted
/// averages, a fast one that reacts to drops and a slow one that resists
/// spikes; the estimate is the smaller.
public struct BandwidthEstimator: Sendable, Equatable {
    public private(set) var fast: Double?
    public private(set) var slow: Double?
    public let fastHalfLife: Double
    public let slowHalfLife: Double

    public init(fastHalfLife: Double = 2, slowHalfLife: Double = 8) {
        self.fastHalfLife = fastHalfLife
        self.slowHalfLife = slowHalfLife
    }

    /// Bits per second, or nil before the first sample.
    public var estimate: Double? {
        guard let fast, let slow else { return nil }
        return min(fast, slow)
    }

    /// Takes `rate` (bits per second) as if it had been measured all along (a line's known speed).
    public mutating func assume(_ rate: Double) {
        guard rate.isFinite, rate > 0 else { return }
        (fast, slow) = (rate, rate)
    }

    /// Adds a download of `bytes` that took `seconds` (weighted by its duration).
    public mutating func add(bytes: Int, seconds: Double) {
        guard bytes > 0, seconds.isFinite else { return }
        let duration = max(seconds, 0.001)
        let rate = Double(bytes) * 8 / duration
        func blend(_ old: Double?, halfLife: Double) -> Double {
            guard let old else { return rate }
            let alpha = pow(2, -duration / halfLife)
            return old * alpha + rate * (1 - alpha)
        }
        fast = blend(fast, halfLife: fastHalfLife)
        slow = blend(slow, halfLife: slowHalfLife)
    }
}

/// Picks the variant to fetch next: start low for a fast first frame, step up
/// one variant at a time at segment boundaries while the measured bandwidth
/// has room, step down (as far as needed) before the buffer runs dry.
public struct VariantChooser: Sendable, Equatable {
    /// Variants' peak bandwidths, in the master playlist's order.
    public let bandwidths: [Int]
    /// Fraction of the estimate a variant may use when stepping up.
    public var upSafety = 0.7
    /// Fraction of the estimate the current variant may use before stepping down.
    public var downSafety = 0.9
    /// Below this much buffered media (seconds), step down regardless.
    public var lowBuffer = 2.0
    /// At least this much buffered before stepping up.
    public var upBuffer = 4.0

    public init(bandwidths: [Int]) {
        precondition(!bandwidths.isEmpty)
        self.bandwidths = bandwidths
    }

    private var ascending: [Int] { bandwidths.indices.sorted { bandwidths[$0] < bandwidths[$1] } }

    /// The lowest-bandwidth variant.
    public var startIndex: Int { ascending[0] }

    /// `index`, or the variant `rank` steps above the lowest bandwidth when `index` is higher than
    /// that (rank 0: the lowest, wherever the master playlist lists it).
    public func capped(_ index: Int, atRank rank: Int) -> Int {
        let order = ascending
        let limit = min(max(rank, 0), order.count - 1)
        guard let current = order.firstIndex(of: index), current > limit else { return index }
        return order[limit]
    }

    /// The variant for the next segment.
    public func next(current: Int, estimate: Double?, bufferedSeconds: Double) -> Int {
        guard let estimate else { return current }
        let order = ascending
        guard let rank = order.firstIndex(of: current) else { return startIndex }
        let currentRate = Double(bandwidths[current])
        if bufferedSeconds < lowBuffer || currentRate > estimate * downSafety {
            // Down to the best that fits (or the lowest).
            let fitting = order[..<rank].last { Double(bandwidths[$0]) <= estimate * downSafety }
            return fitting ?? order[0]
        }
        if rank + 1 < order.count, bufferedSeconds >= upBuffer,
           Double(bandwidths[order[rank + 1]]) <= estimate * upSafety {
            return order[rank + 1]
        }
        return current
    }
}
