import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// Parental control and signage in-process on the virtual clock: a locked channel is
    /// dark and silent until its PIN, a programme rated in the guide locks its channel, and
    /// a signage screen starts muted with no panel. (The harness's PIN "hash" is the PIN.)
    @Suite struct LockBehaviourTests {
        /// Channel 1 rated 18 over a limit of 12: the locked card hides the picture and no
        /// sound comes out; a wrong PIN is refused, the right one brings both back.
        @Test func theLockWithholdsPictureAndSoundUntilThePIN() throws {
            let channels = FlipBehaviourTests.channels(2) { number, script in if number == 1 { script.rating = "18" } }
            let harness = try PlayerHarness(channels) { options in
                options.config.parental = ZapperConfig.Parental(maxAge: 12, pinHash: "1234")
            }
            let locked = try #require(harness.run(until: .locked))
            #expect(locked["channel"] == .int(1) && locked["rating"] == .string("18"))
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 2500)
            #expect(harness.isDark(at: (20, 20)) && !harness.shows(FlipBehaviourTests.colours[0]) && !harness.shows(FlipBehaviourTests.colours[1]),
                    "the locked screen shows \(harness.colour(x: 20, y: 20)) and \(harness.centreColour)")
            #expect(harness.sink.peak(lastMilliseconds: 2500) == 0, "sound came out while locked")
            let typed = harness.log.count
            for key in ["KEY_1", "KEY_2", "KEY_3", "KEY_5"] { harness.press(key) }
            #expect(harness.run(until: .pinRejected, after: typed, within: 1000)?["tries_left"] == .int(4))
            #expect(harness.events(.tune).count == 1, "the digits tuned a channel instead of going to the PIN")
            let retyped = harness.log.count
            for key in ["KEY_1", "KEY_2", "KEY_3", "KEY_4"] { harness.press(key) }
            #expect(harness.run(until: .unlocked, after: retyped, within: 1000)?["reason"] == .string("pin"))
            harness.run(milliseconds: 1000)
            #expect(harness.shows(FlipBehaviourTests.colours[0]), "unlocked, the screen shows \(harness.centreColour)")
            #expect(harness.sink.peak(lastMilliseconds: 500) > 0, "no sound after the PIN")
        }

        /// Programmes rated in the guide (the lineup rates nothing) over a limit of 7: channel 1's
        /// TV-G plays, channel 2's TV-MA film locks it, dark and silent.
        @Test func aProgrammeRatedInTheGuideIsLocked() async throws {
            let clock = VirtualClock()
            let harness = try PlayerHarness(FlipBehaviourTests.channels(2), guide: RatedGuide(now: clock.date)) { options in
                options.config.parental = ZapperConfig.Parental(maxAge: 7)
            }
            harness.run(until: .firstFrame)
            await harness.player.guide?.refresh()
            harness.run(milliseconds: 2000)
            #expect(harness.events(.locked).isEmpty, "channel 1 (TV-G) was locked")
            #expect(harness.shows(FlipBehaviourTests.colours[0]))
            #expect(harness.sink.peak(lastMilliseconds: 500) > 0)
            let pressed = harness.log.count
            harness.press("KEY_CHANNELUP")
            let locked = try #require(harness.run(until: .locked, after: pressed))
            #expect(locked["channel"] == .int(2) && locked["rating"] == .string("TV-MA"))
            harness.run(milliseconds: 3000)
            #expect(harness.isDark(at: (20, 20)) && !harness.shows(FlipBehaviourTests.colours[0]) && !harness.shows(FlipBehaviourTests.colours[1]),
                    "the locked screen shows \(harness.colour(x: 20, y: 20)) and \(harness.centreColour)")
            #expect(harness.sink.peak(lastMilliseconds: 2000) == 0, "sound came out while locked")
            #expect(harness.events(.locked).count == 1)
        }

        /// Signage: started muted, and the panel never opens (Up and Menu do nothing).
        @Test func signageStartsMutedWithoutThePanel() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(2)) { options in
                options.config.signage = ZapperConfig.Signage(startMuted: true, noHint: true, panelDisabled: true)
            }
            harness.run(until: .firstFrame)
            harness.run(milliseconds: 1000)
            for key in ["KEY_UP", "KEY_MENU"] { harness.press(key) }
            harness.run(milliseconds: 3000)
            #expect(harness.events(.key).count == 2)
            #expect(harness.events(.panelOpened).isEmpty, "the panel opened on a signage screen")
            #expect(harness.sink.peak(lastMilliseconds: 5000) == 0, "sound came out of a screen started muted")
            #expect(harness.shows(FlipBehaviourTests.colours[0]))
        }

        /// Each channel's programme on now: channel 1 "News" (TV-G), channel 2 "Film" (TV-MA).
        struct RatedGuide: GuideLoader {
            let guide: Guide
            var source: String { "rated test guide" }
            func load(window: GuideWindow, wanted: GuideWanted) async throws -> GuideRead { GuideRead(guide: guide) }

            init(now: Date) {
                let programmes = [("News", "TV-G"), ("Film", "TV-MA")].enumerated().map { index, programme in
                    Programme(channelID: "c\(index + 1)", start: now - 600, stop: now + 3600, title: programme.0,
                              ratings: [ProgrammeRating(system: "VCHIP", value: programme.1)])
                }
                guide = Guide(programmes: programmes, channels: (1...2).map { GuideChannel(id: "c\($0)", displayNames: ["Channel \($0)"]) })
            }
        }
    }
}
