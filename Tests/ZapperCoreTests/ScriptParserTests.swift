import Testing
@testable import ZapperCore

@Suite struct ScriptParserTests {
    @Test func readsEveryCommand() throws {
        let lines = try ScriptParser.parse("""
            # a comment
            press KEY_CHANNELUP
            hold KEY_RIGHT 1500

            wait 250
            wait-event first-frame
            wait-event interstitial-dismissed 5000
            snapshot /tmp/a.png
            quit
            """, source: "s.txt")
        #expect(lines.map(\.command) == [
            .press(key: "KEY_CHANNELUP"), .hold(key: "KEY_RIGHT", milliseconds: 1500), .wait(milliseconds: 250),
            .waitEvent(name: "first-frame", timeoutMilliseconds: 30_000),
            .waitEvent(name: "interstitial-dismissed", timeoutMilliseconds: 5000), .snapshot(path: "/tmp/a.png"), .quit,
        ])
        #expect(lines.map(\.line) == [2, 3, 5, 6, 7, 8, 9])
    }

    @Test(arguments: [("jump 3", "unknown command \"jump\""), ("wait", "usage: wait MS"), ("wait soon", "needs a duration"),
                      ("snapshot out.jpg", "PATH.png"), ("quit now", "usage: quit"), ("hold KEY_UP", "usage: hold KEY_NAME MS"),
                      ("press ENTER", "\"ENTER\" is not a key name"), ("hold key_up 300", "not a key name")])
    func refusesBadLinesWithTheirNumber(text: String, reason: String) {
        do {
            _ = try ScriptParser.parse("wait 1\n" + text, source: "s.txt")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("s.txt:2: "))
            #expect(error.message.contains(reason), "\(error)")
        }
    }

    @Test func eventLinesAreJSONWithTimeAndNameFirst() {
        let event = Event(milliseconds: 42, name: "load-failed", fields: [("channel", .int(3)), ("error", .string("a \"quoted\"\nline"))])
        #expect(event.jsonLine == #"{"t_ms": 42, "event": "load-failed", "channel": 3, "error": "a \"quoted\"\nline"}"#)
    }
}
