import Foundation
import Synchronization
import ZapperCore

/// A clock a behaviour test moves by hand: monotonic seconds and a time of day
/// that only change when the test says so.
final class VirtualClock: PlayerClock, Sendable {
    private let seconds = Mutex<Double>(1000)
    private let startDate: Date

    init(date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        startDate = date
    }

    var monotonic: Double { seconds.withLock { $0 } }
    var date: Date { startDate.addingTimeInterval(monotonic - 1000) }

    func advance(milliseconds: Double) {
        seconds.withLock { $0 += milliseconds / 1000 }
    }
}

/// A sound device on the virtual clock that keeps what was written: it "plays" at
/// the clock's pace like `SystemClockSink`, and remembers each write's loudest sample.
final class RecordingSink: PCMSink, @unchecked Sendable {
    let sampleRate = 48_000
    let bufferFrames = 1_920
    let periodFrames = 480
    private let timing: SystemClockSink
    private let clock: VirtualClock
    private let lock = NSLock()
    private var written: [(at: Double, peak: Int)] = []

    init(clock: VirtualClock) {
        self.clock = clock
        timing = SystemClockSink(now: { clock.monotonic })
    }

    var delayFrames: Int { timing.delayFrames }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        try timing.write(samples)
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        lock.withLock {
            written.append((clock.monotonic, peak))
            if written.count > 20_000 { written.removeFirst(10_000) }
        }
    }

    /// The loudest sample written in the last `milliseconds` of the clock.
    func peak(lastMilliseconds milliseconds: Double) -> Int {
        let since = clock.monotonic - milliseconds / 1000
        return lock.withLock { written.filter { $0.at >= since }.map(\.peak).max() ?? 0 }
    }
}
