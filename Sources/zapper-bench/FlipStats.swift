import Foundation
import ZapperCore

/// One `flip` event of zapper's event log (`--trace-flips`).
struct FlipEvent {
    /// CLOCK_MONOTONIC microseconds of the page flip; nil when none came within 100 ms.
    var flipMicroseconds: Int?
    var scaleMicroseconds: Int
    var composeMicroseconds: Int

    init?(_ logged: LoggedEvent) {
        guard case let .flip(flip, scale, compose) = logged.event else { return nil }
        flipMicroseconds = flip >= 0 ? flip : nil
        scaleMicroseconds = scale
        composeMicroseconds = compose
    }

    /// The flip events of an event log file (JSON lines; other lines are skipped).
    static func read(_ path: String) throws -> [FlipEvent] {
        let text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            (try? LoggedEvent(jsonLine: line)).flatMap(FlipEvent.init)
        }
    }
}

/// Page-flip intervals: how regular the presented frames hit the screen.
struct FlipIntervals {
    var count: Int
    var meanMilliseconds: Double
    var stddevMilliseconds: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    var maxMilliseconds: Double
    /// Vblanks per interval most often seen (2 for 30 fps video at 60 Hz).
    var usualVblanks: Int
    /// Vblanks beyond the usual count, summed over the intervals (frames shown late).
    var missedVblanks: Int
    /// Intervals not on the vblank grid by more than a quarter period (a timestamp that
    /// is not a vblank's).
    var offGrid: Int
    /// Flips that did not complete within 100 ms.
    var timeouts: Int

    init?(_ flips: [FlipEvent], refreshHz: Double) {
        let times = flips.compactMap(\.flipMicroseconds)
        guard times.count >= 3 else { return nil }
        let intervals = zip(times.dropFirst(), times).map { Double($0 - $1) / 1000 }
        count = intervals.count
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        meanMilliseconds = mean
        stddevMilliseconds = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count)).squareRoot()
        let sorted = intervals.sorted()
        p50Milliseconds = Self.percentile(sorted, 0.50)
        p99Milliseconds = Self.percentile(sorted, 0.99)
        maxMilliseconds = sorted.last!
        let period = 1000 / refreshHz
        let vblanks = intervals.map { max(1, Int(($0 / period).rounded())) }
        var histogram: [Int: Int] = [:]
        for n in vblanks { histogram[n, default: 0] += 1 }
        let usual = histogram.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }!.key
        usualVblanks = usual
        missedVblanks = vblanks.map { max(0, $0 - usual) }.reduce(0, +)
        offGrid = zip(intervals, vblanks).filter { abs($0 - Double($1) * period) > period / 4 }.count
        timeouts = flips.count - times.count
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// Milliseconds per frame of the compositor (scale + compose), from the flip events.
struct ComposeCost {
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    var meanMilliseconds: Double

    init?(_ flips: [FlipEvent]) {
        guard !flips.isEmpty else { return nil }
        let costs = flips.map { Double($0.scaleMicroseconds + $0.composeMicroseconds) / 1000 }.sorted()
        p50Milliseconds = FlipIntervals.percentile(costs, 0.50)
        p95Milliseconds = FlipIntervals.percentile(costs, 0.95)
        meanMilliseconds = costs.reduce(0, +) / Double(costs.count)
    }
}
