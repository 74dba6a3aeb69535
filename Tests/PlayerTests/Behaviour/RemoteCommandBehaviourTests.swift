import Foundation
import Synchronization
import Testing
import ZapperCore
@testable import ZapperPlayer

extension InProcess {
    /// A fleet's commands (MQTT, the HTTP API) in-process on the virtual clock: each is carried
    /// out at the loop's next tick like a key, refused with a reason when it cannot be, and the
    /// status a fleet watches follows what is on screen.
    @Suite struct RemoteCommandBehaviourTests {
        @Test func commandsTuneSetTheSoundAndAreRefusedWithAReason() throws {
            let harness = try PlayerHarness(FlipBehaviourTests.channels(6), start: 2)
            let seen = Mutex<[PlayerStatus]>([])
            harness.player.watchStatus { status in seen.withLock { $0.append(status) } }
            _ = harness.run(until: .firstFrame)
            harness.run(milliseconds: 50)
            #expect(harness.player.currentStatus?.health == .playing)
            #expect(harness.player.currentStatus?.channel == 2)

            let replies = Mutex<[RemoteReply]>([])
            func send(_ command: RemoteCommand) {
                harness.player.remoteSink(command) { reply in replies.withLock { $0.append(reply) } }
                harness.run(milliseconds: 50)
            }
            var mark = harness.log.count
            send(.tune(channel: 5))
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(5))
            mark = harness.log.count
            send(.next)
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(6))
            mark = harness.log.count
            send(.key("KEY_CHANNELUP"))
            #expect(harness.run(until: .firstFrame, after: mark)?["channel"] == .int(1), "CH+ from the last channel wraps")
            send(.volume(40))
            send(.mute(true))
            send(.tune(channel: 99))
            send(.key("KEY_NOTHING"))
            send(.volume(101))
            harness.run(milliseconds: 50)
            let answers = replies.withLock { $0 }
            #expect(answers.prefix(5) == [.done, .done, .done, .done, .done])
            #expect(answers.dropFirst(5) == [.refused("no channel 99 in the lineup"), .refused("the keymap has no key KEY_NOTHING"),
                                              .refused("volume 101 is not within 0…100")])
            #expect(harness.player.tuner.view.target == 1, "a refused number moves nothing")
            let status = try #require(harness.player.currentStatus)
            #expect(status.channel == 1 && status.volume == 40 && status.muted && status.health == .playing)
            let channels = seen.withLock { $0.map(\.channel) }
            #expect(channels.first == 2 && channels.contains(5) && channels.contains(6) && channels.last == 1)
            #expect(seen.withLock { $0.contains { $0.channel == 5 && $0.health == .loading } }, "a tune is seen loading first")
        }
    }
}
