import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Closed captions in the panel and with the sound muted, in-process on the
    /// virtual clock: a scripted channel offers CC1, whose lines show while it is chosen.
    @Suite struct CaptionBehaviourTests {
        static let lines = ["CAPTIONS ON TWO", "ROWS"]

        func harness(captionsWhenMuted: Bool = false) throws -> PlayerHarness {
            try PlayerHarness(FlipBehaviourTests.channels(2) { number, script in
                if number == 1 { script.captions = Self.lines }
            }, start: 1) { $0.config.captionsWhenMuted = captionsWhenMuted }
        }

        func stream(_ harness: PlayerHarness) throws -> ScriptedStream {
            try #require(harness.player.playback as? ScriptedStream)
        }

        @Test func thePanelOffersCC1BesideOffAndChoosingItShowsTheCaptions() throws {
            let harness = try harness()
            _ = harness.run(until: .firstFrame)
            harness.run(milliseconds: 500)
            let choices = harness.player.subtitleChoices()
            #expect(choices.map(\.label) == ["Off", "CC1"])
            #expect(choices.map(\.detail) == [nil, "English, en"])
            #expect(choices.map(\.isCurrent) == [true, false])
            #expect(harness.events(.subtitle).isEmpty)

            // Up opens the panel; Right thrice to Subtitles; Up into its items (at Off); Down to CC1; OK.
            let mark = harness.log.count
            for key in ["KEY_UP", "KEY_RIGHT", "KEY_RIGHT", "KEY_RIGHT", "KEY_UP", "KEY_DOWN", "KEY_ENTER", "KEY_BACK", "KEY_BACK"] {
                harness.press(key)
            }
            #expect(harness.events(.subtitles).last?["language"] == .string("CC1"))
            let shown = try #require(harness.run(until: .subtitle, after: mark, within: 2000))
            #expect(shown["text"] == .string(Self.lines.joined(separator: "\n")))
            #expect(try stream(harness).chosenCaptions == .cea608(1))
            #expect(harness.player.subtitleChoices().map(\.isCurrent) == [false, true])
            #expect(harness.player.subtitleLines == Self.lines)

            // Off again: the captions stop being decoded and leave the screen.
            harness.player.chooseSubtitles(0)
            harness.run(milliseconds: 100)
            #expect(try stream(harness).chosenCaptions == nil)
            #expect(harness.player.subtitleLines.isEmpty)
        }

        @Test func mutingShowsCaptionsOnlyWhenTheSettingAsks() throws {
            for setting in [true, false] {
                let harness = try harness(captionsWhenMuted: setting)
                _ = harness.run(until: .firstFrame)
                harness.run(milliseconds: 500)
                #expect(try stream(harness).chosenCaptions == nil)
                harness.press("KEY_MUTE")
                harness.run(milliseconds: 500)
                #expect(try stream(harness).chosenCaptions == (setting ? .cea608(1) : nil), "setting \(setting)")
                #expect(harness.events(.subtitle).count == (setting ? 1 : 0), "setting \(setting)")
                // The choice is not remembered: unmuted, the captions go.
                harness.press("KEY_MUTE")
                harness.run(milliseconds: 500)
                #expect(try stream(harness).chosenCaptions == nil)
                #expect(harness.player.subtitleLines.isEmpty)
                #expect(harness.events(.subtitles).isEmpty)
            }
        }

        /// A choice made stays for the channel: captions chosen, muting changes nothing; Off chosen
        /// explicitly, muting still shows them (Off is the same as no choice).
        @Test func anExplicitChoiceWins() throws {
            let harness = try harness(captionsWhenMuted: true)
            _ = harness.run(until: .firstFrame)
            harness.player.chooseSubtitles(1)
            harness.run(milliseconds: 300)
            #expect(try stream(harness).chosenCaptions == .cea608(1))
            harness.press("KEY_MUTE")
            harness.press("KEY_MUTE")
            harness.run(milliseconds: 300)
            #expect(try stream(harness).chosenCaptions == .cea608(1))
        }
    }
}
