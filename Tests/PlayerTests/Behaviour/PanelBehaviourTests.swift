import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// The swipe-up panel in-process on the virtual clock: audio languages and subtitles
    /// chosen in it, the channel list tuning through the card, and the panel drawn over
    /// the bottom of the still-playing picture.
    @Suite struct PanelBehaviourTests {
        static let english = ScriptedLanguage(language: "en", name: "English", soundLevel: 3000)
        static let deutsch = ScriptedLanguage(language: "de", name: "Deutsch", soundLevel: 6000)

        /// Channel 1 speaks English and German and has English subtitles; channel 2 is plain.
        static func channels() -> [ChannelScript] {
            FlipBehaviourTests.channels(2) { number, script in
                guard number == 1 else { return }
                script.languages = [english, deutsch]
                script.subtitles = [ScriptedLanguage(language: "en", name: "English")]
            }
        }

        /// Up opens the panel over the playing picture; Audio → Deutsch switches the sound (to
        /// twice the level, at the same volume); Subtitles → English follows its cue (on screen
        /// once the panel is closed: `OverlayModelTests`); the channel list tunes channel 2
        /// through the card and closes the panel.
        @Test func thePanelChoosesAudioSubtitlesAndAChannel() throws {
            let harness = try PlayerHarness(Self.channels(), sound: true)
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            let english = harness.sink.peak(lastMilliseconds: 500)
            #expect(english > 0, "English plays first")
            harness.press("KEY_UP")
            harness.run(milliseconds: 600)
            // The panel covers the bottom of the screen; the picture goes on above it.
            #expect(harness.isDark(at: (280, 100), limit: 200), "the panel's area shows \(harness.colour(x: 280, y: 100))")
            #expect(harness.shows(FlipBehaviourTests.colours[0], at: (300, 10)), "the top shows \(harness.colour(x: 300, y: 10))")
            for key in ["KEY_RIGHT", "KEY_RIGHT", "KEY_UP", "KEY_DOWN", "KEY_ENTER"] { harness.press(key) }
            #expect(harness.events(.audio).map { $0["language"] } == [.string("de")])
            harness.run(milliseconds: 1000)
            let deutsch = harness.sink.peak(lastMilliseconds: 500)
            #expect(abs(deutsch - 2 * english) <= 2, "Deutsch (\(deutsch)) plays after English (\(english))")
            let chosen = harness.log.count
            for key in ["KEY_RIGHT", "KEY_DOWN", "KEY_ENTER"] { harness.press(key) }
            #expect(harness.events(.subtitles).map { $0["language"] } == [.string("en")])
            let cue = try #require(harness.run(until: .subtitle, after: chosen, within: 2000))
            #expect(cue["text"] == .string("English (en)"))
            for key in ["KEY_BACK", "KEY_BACK"] { harness.press(key) }
            #expect(harness.events(.panelClosed).map { $0["reason"] } == [.string("key")])

            // Menu opens it again on the tab used last; the channel list tunes channel 2.
            let mark = harness.log.count
            for key in ["KEY_MENU", "KEY_LEFT", "KEY_LEFT", "KEY_LEFT", "KEY_UP", "KEY_DOWN", "KEY_ENTER"] { harness.press(key) }
            let first = try #require(harness.run(until: .firstFrame, after: mark))
            #expect(first["channel"] == .int(2))
            #expect(harness.events(.tune).last?["reason"] == .string("list"))
            #expect(harness.events(.panelOpened).count == 2)
            #expect(harness.events(.panelClosed).map { $0["reason"] } == [.string("key"), .string("chosen")])
            harness.run(milliseconds: 200)
            #expect(harness.shows(FlipBehaviourTests.colours[1]))
        }

        /// The subtitle choice and the picture mode come back from the saved state with no key
        /// pressed: the English cue shows, and on a 4:3 screen the 16:9 picture fills it
        /// (`fill`) instead of sitting between black bars (`fit`).
        @Test(arguments: [PictureMode.fill, .fit])
        func theSubtitleChoiceAndPictureModeComeBack(mode: PictureMode) throws {
            let key = LineupChannel(number: 1, name: "Channel 1", url: ChannelScript.url(channel: 1)).stateKey
            let harness = try PlayerHarness(Self.channels(), screen: (240, 180)) { options in
                options.state = ZapperState(lastChannel: 1, lastChannelKey: key, subtitles: [key: "en"], picture: mode)
            }
            let cue = try #require(harness.run(until: .subtitle))
            #expect(cue["text"] == .string("English (en)"))
            #expect(harness.events(.key).isEmpty)
            // 240x180 holds the 16:9 picture at 240x135 between bars of 22 lines when it fits.
            let top = harness.colour(x: 200, y: 4)
            if mode == .fill {
                #expect(harness.shows(FlipBehaviourTests.colours[0], at: (200, 4)), "the top of the screen is \(top): fit, not fill")
            } else {
                #expect(harness.isDark(at: (200, 4)), "the top of the screen is \(top): fill, not fit")
            }
        }
    }
}
