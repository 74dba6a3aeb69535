import Foundation
import Testing
import ZapperCore

/// Even loudness: the K-weighting is the standard's, the meter agrees with FFmpeg's ebur128
/// filter on the same sound, the limiter holds its ceiling, and the leveller brings a quiet
/// and a loud tone to the target.
@Suite struct LoudnessTests {
    /// Interleaved stereo: the same sine in both channels.
    static func sine(hz: Double, peak: Double, seconds: Double, rate: Int = 48_000) -> [Float] {
        let frames = Int(seconds * Double(rate))
        var out = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Float(peak * sin(2 * Double.pi * hz * Double(frame) / Double(rate)))
            out[frame * 2] = value
            out[frame * 2 + 1] = value
        }
        return out
    }

    @Test func theWeightingAt48kHzIsTheStandardsTable() {
        let shelf = KWeighting.shelf(sampleRate: 48_000), pass = KWeighting.highPass(sampleRate: 48_000)
        let got = [shelf.b0, shelf.b1, shelf.b2, shelf.a1, shelf.a2, pass.b0, pass.b1, pass.b2, pass.a1, pass.a2]
        let table = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585,
                     1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621]
        for (value, expected) in zip(got, table) { #expect(abs(value - expected) < 1e-8, "\(got)") }
    }

    /// EBU Tech 3341's first case: a 1 kHz stereo sine at -23 dBFS reads -23 LUFS.
    @Test func aSineAtMinus23dBFSIsMinus23LUFS() {
        var meter = LoudnessMeter(sampleRate: 48_000)
        let tone = Self.sine(hz: 1000, peak: pow(10, -23.0 / 20), seconds: 5)
        tone.withUnsafeBufferPointer { _ = meter.add($0) }
        #expect(abs((meter.momentary ?? 0) + 23) < 0.1, "\(String(describing: meter.momentary))")
        #expect(abs((meter.integrated ?? 0) + 23) < 0.1, "\(String(describing: meter.integrated))")
        #expect(meter.blockCount == 47, "one block per 100 ms once 400 ms were heard")
        var silent = LoudnessMeter(sampleRate: 48_000)
        [Float](repeating: 0, count: 96_000).withUnsafeBufferPointer { _ = silent.add($0) }
        #expect(silent.integrated == nil, "silence is gated out")
    }

    /// Pink noise that gets louder halfway (so the gates matter): the integrated loudness
    /// FFmpeg's ebur128 filter reports for the same samples, within 0.2 LU.
    @Test func theMeterAgreesWithFFmpegsEbur128() throws {
        let source = "anoisesrc=color=pink:amplitude=0.05:duration=5:seed=7[a];anoisesrc=color=pink:amplitude=0.3:duration=5:seed=9[b];"
            + "[a][b]concat=n=2:v=0:a=1,aformat=sample_fmts=s16:channel_layouts=stereo:sample_rates=48000"
        let pcm = try Self.ffmpeg(["-filter_complex", source, "-f", "s16le", "-"])
        let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Float($0) / 32768 }
        var meter = LoudnessMeter(sampleRate: 48_000)
        samples.withUnsafeBufferPointer { _ = meter.add($0) }
        let report = String(decoding: try Self.ffmpeg(["-filter_complex", source + ",ebur128", "-f", "null", "-"], stderr: true), as: UTF8.self)
        let line = try #require(report.split(separator: "\n").last { $0.contains("I:") && $0.contains("LUFS") })
        let theirs = try #require(Double(line.split(separator: " ").dropFirst().first ?? ""))
        let ours = try #require(meter.integrated)
        #expect(abs(ours - theirs) < 0.2, "ours \(ours), ebur128 \(theirs)")
    }

    @Test func theLimiterHoldsItsCeilingInTruePeak() {
        var limiter = TruePeakLimiter(sampleRate: 48_000, ceilingDB: -1)
        // A loud tone near a quarter of the rate: its peaks fall between the samples.
        var loud = Self.sine(hz: 11_025, peak: 1.6, seconds: 0.5)
        let phase = loud
        limiter.process(&loud)
        var meter = TruePeakLimiter(sampleRate: 48_000, ceilingDB: 0)
        var check = loud
        meter.process(&check)
        #expect(loud.allSatisfy { abs($0) <= limiter.ceiling + 1e-6 })
        #expect(meter.reduced == 0, "what came out has no true peak above -1 dBTP (0 dB would reduce it)")
        #expect(limiter.reduced > 0)
        // Far below the ceiling it only delays.
        var quiet = Self.sine(hz: 440, peak: 0.1, seconds: 0.1)
        let before = quiet
        var other = TruePeakLimiter(sampleRate: 48_000)
        other.process(&quiet)
        let late = 2 * TruePeakLimiter.delayFrames
        #expect(Array(quiet[late...]) == Array(before[..<(before.count - late)]))
        #expect(!phase.isEmpty)
    }

    /// A tone 12 dB under the target and one 12 dB over it both end within 1 LU of it.
    @Test func theLevellerBringsQuietAndLoudToTheTarget() {
        for peak in [pow(10, -35.0 / 20), pow(10, -11.0 / 20)] {
            var leveller = Leveller(sampleRate: 48_000, target: -23)
            var heard = LoudnessMeter(sampleRate: 48_000, windowSeconds: 1)
            let tone = Self.sine(hz: 1000, peak: peak, seconds: 4)
            for start in stride(from: 0, to: tone.count, by: 960) {
                var chunk = tone[start..<min(tone.count, start + 960)].map { Int16(($0 * 32767).rounded()) }
                leveller.process(&chunk)
                chunk.map { Float($0) / 32768 }.withUnsafeBufferPointer { _ = heard.add($0) }
            }
            let level = heard.integrated ?? 0
            #expect(abs(level + 23) < 1, "peak \(peak): \(level) LUFS after 4 s, gain \(leveller.gainDB) dB")
        }
    }

    static func ffmpeg(_ arguments: [String], stderr: Bool = false) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-nostats", "-loglevel", stderr ? "info" : "error"] + arguments
        let pipe = Pipe()
        if stderr { process.standardError = pipe } else { process.standardOutput = pipe }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return data
    }
}
