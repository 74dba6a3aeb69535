import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// The full-screen guide in-process on the virtual clock: the guide key opens it on the
    /// playing channel, the D-pad moves the focus (logged), OK on a programme to come sets a
    /// reminder, OK on one on now tunes it through the card, digits jump; a minute before the
    /// reminded programme a notice comes, and OK on it switches.
    @Suite struct GuideBehaviourTests {
        /// Each channel: "Now N" until 90 s after the start, then "Next N" and "Later N" of half an hour each.
        struct StaticGuide: GuideLoader {
            let guide: Guide
            var source: String { "test guide" }
            func load(window: GuideWindow, wanted: GuideWanted) async throws -> GuideRead { GuideRead(guide: guide) }

            init(channels: Int, now: Date) {
                let programmes = (1...channels).flatMap { number in
                    [("Now", -1800.0, 90.0), ("Next", 90, 1890), ("Later", 1890, 3690)].map { title, from, to in
                        Programme(channelID: "c\(number)", start: now + from, stop: now + to, title: "\(title) \(number)")
                    }
                }
                guide = Guide(programmes: programmes, channels: (1...channels).map { GuideChannel(id: "c\($0)", displayNames: ["Channel \($0)"]) })
            }
        }

        @Test func theGuideMovesTunesSetsAReminderAndTheReminderSwitches() async throws {
            let clock = VirtualClock()
            let harness = try PlayerHarness(FlipBehaviourTests.channels(12), start: 1, guide: StaticGuide(channels: 12, now: clock.date))
            _ = harness.run(until: .firstFrame)
            // Read now, here, rather than waiting for the store's own task.
            await harness.player.guide?.refresh()
            #expect(harness.player.guide?.timeSpan != nil)
            harness.press("KEY_EPG")
            harness.run(milliseconds: 50)
            #expect(harness.events(.guideOpened).last?["channel"] == .int(1))
            let shown = try #require(harness.player.guideContent(at: harness.clock.date))
            #expect(shown.rows.count == min(12, harness.player.guideGrid?.visibleRows ?? 0))
            #expect(shown.details.title == "Now 1" && shown.details.hint == "OK to watch")
            for key in ["KEY_DOWN", "KEY_DOWN", "KEY_RIGHT"] { harness.press(key) }
            harness.run(milliseconds: 50)
            let focus = harness.events(.guideFocus).map { "\($0["channel"].map(String.init(describing:)) ?? "") \($0["title"].map(String.init(describing:)) ?? "")" }
            #expect(focus == ["int(2) string(\"Now 2\")", "int(3) string(\"Now 3\")", "int(3) string(\"Next 3\")"], "\(focus)")
            harness.press("KEY_ENTER")
            harness.run(milliseconds: 50)
            let reminder = try #require(harness.events(.reminder).last)
            #expect(reminder["channel"] == .int(3) && reminder["action"] == .string("set"))
            #expect(harness.player.guideContent(at: harness.clock.date)?.details.hint == "Reminder set · OK to clear")
            harness.run(milliseconds: 600)
            let saved = try #require(harness.states.waitForSave { !$0.reminders.isEmpty })
            #expect(saved.reminders.map(\.title) == ["Next 3"])
            // Back to what is on now, a channel up: OK tunes channel 2 through the card, and the guide closes.
            let mark = harness.log.count
            for key in ["KEY_LEFT", "KEY_UP", "KEY_ENTER"] { harness.press(key) }
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(2))
            #expect(harness.events(.guideClosed).last?["reason"] == .string("chosen"))
            #expect(harness.events(.tune).last?["channel"] == .int(2))
            // Digits in the guide move its focus; Back closes it.
            for key in ["KEY_G", "KEY_1", "KEY_1"] { harness.press(key) }
            harness.run(milliseconds: 50)
            #expect(harness.events(.guideFocus).last?["channel"] == .int(11))
            harness.press("KEY_BACK")
            harness.run(milliseconds: 50)
            #expect(harness.player.guideGrid == nil && harness.events(.guideClosed).last?["reason"] == .string("key"))
            #expect(harness.events(.tune).last?["channel"] == .int(2), "digits in the guide tune nothing")
            // A minute before "Next 3": the notice; OK switches to channel 3.
            _ = try #require(harness.run(until: .reminder, within: 40_000))
            #expect(harness.events(.reminder).last?["action"] == .string("due"))
            #expect(harness.player.reminderText(at: harness.clock.date) == "In 1 min on 3 Channel 3: Next 3 · OK to switch")
            let before = harness.log.count
            harness.press("KEY_ENTER")
            #expect(harness.run(until: .firstFrame, after: before)?["channel"] == .int(3))
            #expect(harness.events(.reminder).last?["action"] == .string("switched"))
            harness.run(milliseconds: 600)
            #expect(try #require(harness.states.waitForSave { $0.reminders.isEmpty }).reminders.isEmpty)
        }
    }
}
