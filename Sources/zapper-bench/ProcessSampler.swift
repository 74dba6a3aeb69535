import Foundation

/// One look at a process tree.
struct ProcessSample: Sendable {
    /// Monotonic seconds (`Monotonic.now`).
    var time: Double
    /// CPU time used so far by the tree (all threads, and children already waited for).
    var cpuSeconds: Double
    /// Resident memory of the tree now, and the sum of each process's high-water mark.
    var residentBytes: Int
    var peakBytes: Int
    var processes: Int
}

/// Samples a process and its descendants every `interval` seconds on its own
/// thread, from /proc; `sampleNow()` adds one at a chosen moment (the start and
/// end of a measured window).
final class ProcessSampler: @unchecked Sendable {
    let pid: pid_t
    let interval: Double
    private let lock = NSLock()
    private var taken: [ProcessSample] = []
    private var stopped = false

    init(pid: pid_t, interval: Double = 0.5) {
        self.pid = pid
        self.interval = interval
    }

    func start() {
        let thread = Thread { [self] in
            while !isStopped {
                _ = sampleNow()
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "zapper-bench-sampler-\(pid)"
        thread.start()
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    /// Samples now and keeps the sample; nil when the process is gone.
    @discardableResult
    func sampleNow() -> ProcessSample? {
        guard let sample = Self.sample(root: pid) else { return nil }
        lock.withLock { taken.append(sample) }
        return sample
    }

    var samples: [ProcessSample] { lock.withLock { taken } }

    private var isStopped: Bool { lock.withLock { stopped } }

    static func sample(root: pid_t) -> ProcessSample? {
        let time = Monotonic.now
        guard ProcFS.stat(root) != nil else { return nil }
        var ticks = 0
        var resident = 0
        var peak = 0
        var count = 0
        for pid in ProcFS.tree(root: root) {
            guard let stat = ProcFS.stat(pid) else { continue }  // exited between the listing and now
            ticks += stat.ticks
            if let memory = ProcFS.memory(pid) {
                resident += memory.resident
                peak += memory.peak
            }
            count += 1
        }
        return ProcessSample(time: time, cpuSeconds: Double(ticks) / ProcFS.ticksPerSecond,
                             residentBytes: resident, peakBytes: peak, processes: count)
    }
}

/// Seconds on a clock that never jumps.
enum Monotonic {
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
