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
            .waitEvent(name: .firstFrame, timeoutMilliseconds: 30_000),
            .waitEvent(name: .interstitialDismissed, timeoutMilliseconds: 5000), .snapshot(path: "/tmp/a.png"), .quit,
        ])
        #expect(lines.map(\.line) == [2, 3, 5, 6, 7, 8, 9])
    }

    @Test(arguments: [("jump 3", "unknown command \"jump\""), ("wait", "usage: wait MS"), ("wait soon", "needs a duration"),
                      ("snapshot out.jpg", "PATH.png"), ("quit now", "usage: quit"), ("hold KEY_UP", "usage: hold KEY_NAME MS"),
                      ("press ENTER", "\"ENTER\" is not a key name"), ("hold key_up 300", "not a key name"),
                      ("wait-event first_frame", "\"first_frame\" is not an event zapper logs")])
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

    @Test func everyEventIsWrittenUnderItsNameWithItsFields() {
        let failure = PlaybackFailure(.http(status: 404), "http://h/1.ts: HTTP 404")
        let event = PlayerEvent.loadFailed(channel: 3, failure)
        #expect(event.name == .loadFailed)
        #expect(Event(milliseconds: 1, name: event.name.rawValue, fields: event.fields).jsonLine
                == #"{"t_ms": 1, "event": "load-failed", "channel": 3, "error": "http://h/1.ts: HTTP 404", "kind": "http-404"}"#)
        let crash = PlayerEvent.crashLoop(exits: 3, start: 1, skipped: 2, quarantined: [2, 5])
        #expect(crash.fields.map(\.0) == ["exits", "start", "quarantined", "skipped"])
        // Names are unique and as Sources/zapper/README.md lists them: lower case words joined by '-'.
        #expect(Set(EventName.allCases.map(\.rawValue)).count == EventName.allCases.count)
        #expect(EventName.allCases.allSatisfy { $0.rawValue.allSatisfy { $0.isLowercase || $0 == "-" } })
    }
}
