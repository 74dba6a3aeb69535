import Foundation

/// CPU and memory of a tool over a measured window, from its samples.
struct WindowMeasurement: Sendable {
    /// Monotonic seconds of the first and last sample of the window.
    var startTime: Double
    var endTime: Double
    var seconds: Double { endTime - startTime }
    /// CPU time over wall time, in percent of one core (200 = both cores of a 2-core machine).
    var cpuPercent: Double
    /// Median resident memory of the samples taken `steadyAfter` seconds into the window or later.
    var steadyResidentBytes: Int?
    /// The largest resident memory seen in the window's samples, and the kernel's high-water
    /// mark (VmHWM, since the process started) at the window's end.
    var maxResidentBytes: Int
    var highWaterBytes: Int
    var sampleCount: Int

    init(start: ProcessSample, end: ProcessSample, samples: [ProcessSample], steadyAfter: Double = 10) {
        startTime = start.time
        endTime = end.time
        let seconds = end.time - start.time
        cpuPercent = seconds > 0 ? (end.cpuSeconds - start.cpuSeconds) / seconds * 100 : 0
        let inside = samples.filter { $0.time >= start.time && $0.time <= end.time }
        let steady = inside.filter { $0.time >= start.time + steadyAfter }.map(\.residentBytes).sorted()
        steadyResidentBytes = steady.isEmpty ? nil : Self.median(steady)
        maxResidentBytes = inside.map(\.residentBytes).max() ?? end.residentBytes
        highWaterBytes = end.peakBytes
        sampleCount = inside.count
    }

    static func median(_ sorted: [Int]) -> Int {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
