import Synchronization

/// Where the player's sound goes: ALSA on a box; a sink that only keeps time
/// when there is no sound device (or it failed); a scripted one in tests.
/// Interleaved signed 16-bit stereo. `write` blocks while the device is full:
/// call it from the audio thread, never from the cooperative pool.
public protocol PCMSink: AnyObject {
    var sampleRate: Int { get }
    /// What the device buffers, in frames: the audio thread stays no further ahead.
    var bufferFrames: Int { get }
    /// The frames written in one go.
    var periodFrames: Int { get }
    /// Frames written but not yet heard.
    var delayFrames: Int { get }
    /// Writes all the frames; throws when the device failed (unplugged, gone).
    func write(_ samples: UnsafeBufferPointer<Int16>) throws
}

/// A sink with no device: it "plays" what is written at the rate of the system
/// clock and throws it away, so a player with no sound still has a clock that
/// runs at real time and the pictures go on.
public final class SystemClockSink: PCMSink, Sendable {
    public let sampleRate: Int
    public let bufferFrames: Int
    public let periodFrames: Int
    private let now: @Sendable () -> Double
    /// When what has been written will have been "heard" (seconds on `now`).
    private let heardUntil = Mutex<Double?>(nil)

    /// `now`: seconds on a monotonic clock (a test passes its own).
    public init(sampleRate: Int = 48_000, bufferFrames: Int = 1_920, periodFrames: Int = 480, now: @escaping @Sendable () -> Double) {
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        self.periodFrames = periodFrames
        self.now = now
    }

    public var delayFrames: Int {
        guard let heard = heardUntil.withLock({ $0 }) else { return 0 }
        return max(0, Int(((heard - now()) * Double(sampleRate)).rounded()))
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        let seconds = Double(samples.count / 2) / Double(sampleRate)
        // An idle device starts playing what comes at once, like a real one after an underrun.
        let now = now()
        heardUntil.withLock { $0 = max($0 ?? 0, now) + seconds }
    }
}
