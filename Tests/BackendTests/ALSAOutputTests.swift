import Foundation
import Testing
import TestSupport
import ZapperAudio

/// Real ALSA, with no sound card: a `file` PCM (slave `null`) writes what
/// was played to a WAV file, chosen by ALSA_CONFIG_PATH.
@Suite(.serialized) struct ALSAOutputTests {
    static let wav = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-alsa-\(getpid()).wav")

    init() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-alsa-\(getpid()).conf")
        try """
            pcm.!default {
                type file
                slave.pcm "nullsink"
                file "\(Self.wav.path)"
                format "wav"
            }
            pcm.nullsink { type null }
            """.write(to: config, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", config.path, 1)
    }

    @Test func negotiatesAndWritesWhatIsHeard() throws {
        try? FileManager.default.removeItem(at: Self.wav)
        do {
            let output = try ALSAOutput(latency: 0.04)
            #expect(output.sampleRate == 48_000 && output.channels == 2)
            // No more than 50 ms buffered, in several periods.
            #expect(Double(output.bufferFrames) / 48_000 <= 0.05)
            #expect(output.periodFrames > 0 && output.periodFrames < output.bufferFrames)
            var samples: [Int16] = []
            for n in 0..<48_000 {
                let value = Int16(10_000 * sin(2 * Double.pi * 660 * Double(n) / 48_000))
                samples += [value, value]
            }
            try samples.withUnsafeBufferPointer { try output.write($0) }
            output.drain()
        }
        // The WAV holds one second of the 660 Hz tone.
        let data = try Data(contentsOf: Self.wav)
        #expect(data.count >= 44 + 48_000 * 4)
        let pcm = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let left = stride(from: 0, to: pcm.count, by: 2).map { Float(pcm[$0]) / 32768 }
        let tones = [440.0, 550, 660, 770, 880]
        let strongest = tones.max { goertzelPower(left, frequency: $0, sampleRate: 48_000) < goertzelPower(left, frequency: $1, sampleRate: 48_000) }
        #expect(strongest == 660)
    }

    @Test func anUnknownDeviceIsAClearError() {
        do {
            _ = try ALSAOutput(device: "no_such_device")
            Issue.record("opened a device that does not exist")
        } catch {
            #expect("\(error)".hasPrefix("snd_pcm_open no_such_device: "))
        }
    }
}
