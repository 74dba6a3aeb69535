import Foundation
import Synchronization
import Testing
import ZapperCore
@testable import ZapperPlayer

/// With no sound device, or one that fails mid-play, the sound goes into the
/// system clock (so the pictures go on) and the device is tried again until it
/// comes back. A scripted device stands in for ALSA; the clock is moved by hand.
@Suite struct SoundDeviceTests {
    final class Clock: Sendable {
        let seconds = Mutex(100.0)
        var now: Double { seconds.withLock { $0 } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    /// A device that fails its writes while `broken`, and counts what it was given.
    final class ScriptedSink: PCMSink, @unchecked Sendable {
        let sampleRate = 48_000, bufferFrames = 1_920, periodFrames = 480, delayFrames = 0
        var broken = false
        var frames = 0
        struct Unplugged: Error {}
        func write(_ samples: UnsafeBufferPointer<Int16>) throws {
            if broken { throw Unplugged() }
            frames += samples.count / 2
        }
    }

    let period = [Int16](repeating: 1, count: 960)

    @Test func aFailedDeviceIsReplacedByTheSystemClockAndComesBack() {
        let clock = Clock()
        let real = ScriptedSink()
        let opens = Mutex(0)
        let present = Mutex(true)
        var changes: [String] = []
        let device = SoundDevice(open: {
            opens.withLock { $0 += 1 }
            guard present.withLock({ $0 }) else { throw ScriptedSink.Unplugged() }
            return real
        }, retryPeriod: 5, now: { clock.now }, report: { change in
            switch change {
            case .lost(let reason): changes.append("lost: \(reason)")
            case .opened: changes.append("opened")
            case .back: changes.append("back")
            }
        })
        #expect(device.isReal && changes == ["opened"])
        period.withUnsafeBufferPointer { device.write($0) }
        #expect(real.frames == 480)

        // Unplugged mid-play: the write does not throw, the clock sink takes the sound.
        real.broken = true
        present.withLock { $0 = false }
        period.withUnsafeBufferPointer { device.write($0) }
        #expect(!device.isReal && changes.last == "lost: Unplugged()")
        #expect(device.sink.delayFrames == 480)  // "playing" on the system clock
        clock.advance(0.005)
        #expect(device.sink.delayFrames == 240)

        // Not tried again before the retry period; tried every period after it.
        clock.advance(4)
        period.withUnsafeBufferPointer { device.write($0) }
        #expect(opens.withLock { $0 } == 1)
        clock.advance(1)
        period.withUnsafeBufferPointer { device.write($0) }
        #expect(opens.withLock { $0 } == 2 && !device.isReal)
        #expect(changes.count == 2)  // the failed retry is not said again

        // Plugged back: the next retry takes it, and the sound goes there again.
        real.broken = false
        present.withLock { $0 = true }
        clock.advance(5)
        period.withUnsafeBufferPointer { device.write($0) }
        #expect(device.isReal && changes.last == "back")
        #expect(real.frames == 960)
    }

    @Test func noDeviceAskedForIsNeverOpened() {
        var changes: [String] = []
        let device = SoundDevice(open: nil, now: { 0 }) { change in
            if case .lost(let reason) = change { changes.append(reason) }
        }
        #expect(!device.isReal && changes == ["no sound device asked for"])
    }

    @Test func theSystemClockSinkPlaysAtRealTime() throws {
        let clock = Clock()
        let sink = SystemClockSink(now: { clock.now })
        #expect(sink.delayFrames == 0)
        try period.withUnsafeBufferPointer { try sink.write($0) }
        try period.withUnsafeBufferPointer { try sink.write($0) }
        #expect(sink.delayFrames == 960)
        clock.advance(0.015)
        #expect(sink.delayFrames == 240)
        // Idle past its end: it starts again from now, like a device after an underrun.
        clock.advance(1)
        #expect(sink.delayFrames == 0)
        try period.withUnsafeBufferPointer { try sink.write($0) }
        #expect(sink.delayFrames == 480)
    }
}
