import Foundation
import Testing
import TestSupport
import ZapperCore

/// Even loudness through the real binary: channel 9's tone is sent 12 dB quieter than
/// channel 2's; after a few seconds of each, the two are heard within 1 LU of each other.
extension ZapperPlaybackTests {
    @Test func aQuietChannelIsHeardAsLoudAsTheOthers() async throws {
        let quiet = try #require(try Repo.catalog().channel(number: 9)?.audio.first)
        let loud = try #require(try Repo.catalog().channel(number: 2)?.audio.first)
        #expect(quiet.levelDB == -12 && loud.levelDB == nil)
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--channel", "9", "--size", "320x180"], script: """
            wait-event audio-started 20000
            wait 5000
            press KEY_2
            wait-event audio-started 20000
            wait 5000
            quit
            """)
        // Five seconds of each channel's sound, from when it started: the gain is learnt from
        // the sound (a loaded machine can start it well after the first picture).
        #expect(run.status == 0, "\(run.stderr)")
        let pcm = run.wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let stereo = pcm.map { Float($0) / 32768 }
        // Each tone's last two seconds (by which tone rules each tenth of a second).
        func lastSeconds(of hz: Int) -> [Float] {
            let block = 4_800
            let ruled = stride(from: 0, to: stereo.count / 2 - block, by: block).filter { start in
                let left = stride(from: start * 2, to: (start + block) * 2, by: 2).map { stereo[$0] }
                let power = goertzelPower(left, frequency: Double(hz), sampleRate: 48_000)
                let other = goertzelPower(left, frequency: Double(hz == quiet.toneHz ? loud.toneHz : quiet.toneHz), sampleRate: 48_000)
                return power > 100 * other
            }
            return ruled.suffix(20).flatMap { Array(stereo[($0 * 2)..<(($0 + block) * 2)]) }
        }
        func loudness(_ samples: [Float]) -> Double? {
            var meter = LoudnessMeter(sampleRate: 48_000)
            samples.withUnsafeBufferPointer { _ = meter.add($0) }
            return meter.integrated
        }
        let quietPart = lastSeconds(of: quiet.toneHz), loudPart = lastSeconds(of: loud.toneHz)
        #expect(quietPart.count == 192_000 && loudPart.count == 192_000, "two seconds of each tone")
        let heardQuiet = try #require(loudness(quietPart)), heardLoud = try #require(loudness(loudPart))
        let told = run.events.filter { [.firstFrame, .audioStarted, .stalled, .tune].contains($0.event.name) }
        #expect(abs(heardQuiet - heardLoud) < 1, "channel 9 \(heardQuiet) LUFS, channel 2 \(heardLoud) LUFS; \(told)")
        // The target is before the volume: 80 of 100, on its squared curve, takes 3.9 dB more.
        let expected = -23 + 20 * log10(0.64)
        // Sound missing from the device (written late: a loaded machine) is silence in the WAV, heard as quieter.
        let silent = loudPart.count { $0 == 0 }
        #expect(abs(heardLoud - expected) < 1, "\(heardLoud) LUFS heard, \(expected) expected; \(silent) silent samples in the two seconds")
    }
}
