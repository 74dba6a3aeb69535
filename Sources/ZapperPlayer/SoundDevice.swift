import Foundation
import ZapperCore

/// The sound device as the audio thread sees it: the real one while it works;
/// when there is none, or it fails mid-play (unplugged, a driver error), a
/// `SystemClockSink` stands in so the picture runs on the system clock, and the
/// real device is opened again every `retryPeriod` until it comes back.
/// Used by the audio thread only.
final class SoundDevice {
    private let open: (() throws -> any PCMSink)?
    private let retryPeriod: Double
    private let now: @Sendable () -> Double
    private let report: (Change) -> Void
    private(set) var sink: any PCMSink
    /// When the real device may be tried again; nil while it works.
    private var retryAt: Double?

    enum Change {
        /// The device could not be opened at start, or failed: the reason in words.
        case lost(String)
        /// Opened at start.
        case opened(any PCMSink)
        /// Opened again after it was lost.
        case back(any PCMSink)
    }

    /// Seconds between tries of a lost device.
    static let retrySeconds = 5.0

    /// `open`: opens the real device (nil: run without sound for good).
    init(open: (() throws -> any PCMSink)?, retryPeriod: Double = SoundDevice.retrySeconds, now: @escaping @Sendable () -> Double,
         report: @escaping (Change) -> Void) {
        self.open = open
        self.retryPeriod = retryPeriod
        self.now = now
        self.report = report
        sink = SystemClockSink(now: now)
        guard let open else {
            report(.lost("no sound device asked for"))
            return
        }
        do {
            sink = try open()
            report(.opened(sink))
        } catch {
            report(.lost("\(error)"))
            retryAt = now() + retryPeriod
        }
    }

    /// Whether the real device is playing.
    var isReal: Bool { !(sink is SystemClockSink) }

    /// Writes to the device; a failure switches to the system clock (said once) instead of throwing.
    func write(_ samples: UnsafeBufferPointer<Int16>) {
        reopenIfDue()
        do {
            try sink.write(samples)
        } catch {
            report(.lost("\(error)"))
            sink = SystemClockSink(sampleRate: sink.sampleRate, now: now)
            retryAt = now() + retryPeriod
            try? sink.write(samples)
        }
    }

    private func reopenIfDue() {
        guard let open, let due = retryAt, now() >= due else { return }
        do {
            sink = try open()
            retryAt = nil
            report(.back(sink))
        } catch {
            retryAt = now() + retryPeriod
        }
    }
}
