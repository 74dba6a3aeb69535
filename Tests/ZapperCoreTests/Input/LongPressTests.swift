import Testing
import ZapperCore

/// A key watched for a long press: short means its own action at the release; held, the long
/// action happens once while it is down and the release then does nothing.
@Suite struct LongPressTests {
    @Test func shortAtTheReleaseLongOnceWhileHeld() {
        var press = LongPress()
        press.press(key: "ok", action: .ok, now: 0)
        let early = press.due(now: LongPress.after - 1)
        #expect(early == nil && press.nextDeadline == LongPress.after)
        let short = press.release(key: "ok")
        #expect(short == .ok)
        press.press(key: "ok", action: .ok, now: 1000)
        let long = press.due(now: 1000 + LongPress.after)
        #expect(long == .ok)
        let again = press.due(now: 5000)
        #expect(again == nil && press.nextDeadline == nil, "once")
        let other = press.release(key: "other")
        #expect(other == nil && press.watches("ok"))
        let after = press.release(key: "ok")
        #expect(after == nil, "the short meaning does not follow a long press")
    }
}
