import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Even loudness in-process on the virtual clock: a loud and a quiet channel (12 dB apart)
    /// come out alike after a few seconds, a flip back starts at the gain the channel last had,
    /// and the gains are kept in the state.
    @Suite struct LoudnessBehaviourTests {
        @Test func aLoudAndAQuietChannelSoundAlikeAndAFlipBackStartsLevelled() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(2) { number, script in
                script.soundHz = 1000
                script.soundLevel = number == 1 ? 16_000 : 4_000
            }, start: 1) { $0.config.loudness.enabled = true }
            _ = harness.run(until: .firstFrame)
            harness.run(milliseconds: 500)
            let unlevelled = harness.sink.peak(lastMilliseconds: 100)
            harness.run(milliseconds: 5000)
            let loud = harness.sink.peak(lastMilliseconds: 500)
            let loudGain = try #require(harness.player.audio.levelGainDB)
            #expect(loud < unlevelled / 2, "channel 1 turned down: \(unlevelled) → \(loud), \(loudGain) dB")

            var mark = harness.log.count
            harness.press("KEY_CHANNELUP")
            _ = try #require(harness.run(until: .firstFrame, after: mark))
            harness.run(milliseconds: 6000)
            let quiet = harness.sink.peak(lastMilliseconds: 500)
            let ratio = 20 * log10(Double(loud) / Double(quiet))
            #expect(abs(ratio) < 1, "12 dB apart as sent, \(ratio) dB apart as heard (\(loud), \(quiet))")

            mark = harness.log.count
            harness.press("KEY_CHANNELDOWN")
            _ = try #require(harness.run(until: .firstFrame, after: mark))
            harness.run(milliseconds: 100)
            let again = try #require(harness.player.audio.levelGainDB)
            #expect(abs(again - loudGain) < 1, "channel 1 starts again at \(again) dB, near the \(loudGain) dB it ended with")
            let saved = try #require(harness.states.waitForSave { $0.levels.entries.count == 2 })
            let keys = [1, 2].map { ChannelScript.url(channel: $0).absoluteString }
            #expect(saved.levels.entries.map(\.channel).sorted() == keys.sorted())
            let difference = (saved.levels.gain(for: keys[1]) ?? 0) - (saved.levels.gain(for: keys[0]) ?? 0)
            #expect(abs(difference - 12) < 1.5, "channel 2 needs about 12 dB more than channel 1: \(difference)")
        }
    }
}
