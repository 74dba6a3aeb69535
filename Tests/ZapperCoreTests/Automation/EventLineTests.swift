import PropertyBased
import Testing
import ZapperCore

/// The event log read back (`LoggedEvent(jsonLine:)`): every event zapper writes comes back as the
/// typed event with the same fields, any text in them too; a line that is not an event fails
/// with its reason.
struct EventLineTests {
    /// One of every event zapper writes (both forms of `subtitle`, optional fields present and absent).
    static let samples: [PlayerEvent] = [
        .key(name: "KEY_UP", action: "next", waitedMilliseconds: 3),
        .tune(channel: 4, channelName: "", reason: .failover, warm: true), .interstitialShown(channel: 4),
        .firstFrame(channel: 4, zapMilliseconds: 180, width: 1920, height: 1080, neighbourBytes: 12_345),
        .interstitialDismissed(channel: 4, result: .timeout), .audioStarted(channel: 4, heard: false),
        .loadFailed(channel: 4, PlaybackFailure(.http(status: 404), "http://h/1.ts: HTTP 404")),
        .audioFailed(channel: 4, PlaybackFailure(.certificate(.wrongHost), "tls")),
        .loadRecovered(channel: 4, gapMilliseconds: 900),
        .sourceFailover(channel: 4, from: 1, to: 2, PlaybackFailure(.unsupported(.notAStream), "a web page")),
        .stalled(channel: 1, seconds: 8), .frozen(channel: 1, seconds: 10), .black(channel: 1, seconds: 10),
        .soundLost(reason: "no card"), .soundBack, .subtitlesFailed(channel: 2, error: "404", said: false),
        .volume(level: 30, muted: true), .panelOpened(row: "audio"), .panelClosed(reason: .inactive),
        .guideLoaded(programmes: 40, stale: true), .offline(on: true, copies: ["lineup", "guide"]), .offline(on: false, copies: []),
        .schedule(entry: 2, began: false), .standby(on: true, reason: "key"), .guideOpened(channel: 5),
        .guideClosed(reason: .chosen), .guideFocus(channel: 5, start: 1_700_000_000, title: "News"),
        .reminder(channel: 5, start: 1_700_000_000, action: .switched),
        .timeshift(channel: 3, state: .playing, behindMilliseconds: 5_012, positionMilliseconds: 1_796_000_000_000), .audio(channel: 1, language: "deu"),
        .subtitles(channel: 1, language: "off"), .subtitle(channel: 1, text: "Hello\nthere"),
        .subtitleBitmap(channel: 1, regions: 2, canvas: "720x576"), .picture(mode: "fit"), .deinterlace(mode: "off"),
        .lipSync(milliseconds: -40), .locked(channel: 7, rating: "18"), .pinRejected(channel: 7, triesLeft: 2, lockoutSeconds: nil),
        .pinRejected(channel: 7, triesLeft: 0, lockoutSeconds: 300), .unlocked(channel: 7, reason: "pin"), .snapshot(path: "/tmp/a b.png"),
        .cue(channel: 3, HLSCue(id: "ad-1", kind: .out, duration: 30, cueClass: "com.example")), .cue(channel: 3, HLSCue(id: "seq-4", kind: .in)),
        .favourite(channel: 3, on: true), .crashLoop(exits: 3, start: 1, skipped: 2, quarantined: [2, 5]),
        .crashLoop(exits: 1, start: 1, skipped: nil, quarantined: []),
        .frame(ptsMilliseconds: 15_480, clockMilliseconds: -1, luma: 106), .flip(flipMicroseconds: -1, scaleMicroseconds: 900, composeMicroseconds: 300),
    ]

    static func line(_ event: PlayerEvent, at milliseconds: Int = 7) -> String {
        Event(milliseconds: milliseconds, name: event.name.rawValue, fields: event.fields).jsonLine
    }

    static func fieldsBack(_ event: PlayerEvent) throws -> Event {
        let back = try LoggedEvent(jsonLine: line(event))
        return Event(milliseconds: back.milliseconds, name: back.event.name.rawValue, fields: back.event.fields)
    }

    @Test func everyEventReadsBackWithItsFields() throws {
        #expect(Set(Self.samples.map(\.name)) == Set(EventName.allCases), "a sample of every event")
        for event in Self.samples {
            #expect(try Self.fieldsBack(event) == Event(milliseconds: 7, name: event.name.rawValue, fields: event.fields), "\(event)")
        }
        // Where the log holds all of it, the very event comes back.
        #expect(try LoggedEvent(jsonLine: Self.line(.frame(ptsMilliseconds: 40, clockMilliseconds: 35, luma: 9), at: 12))
                == LoggedEvent(milliseconds: 12, event: .frame(ptsMilliseconds: 40, clockMilliseconds: 35, luma: 9)))
        let failed = try LoggedEvent(jsonLine: Self.line(Self.samples[6])).event
        guard case let .loadFailed(channel, failure) = failed else { Issue.record("\(failed)"); return }
        #expect(channel == 4 && failure.kind == .http(status: 404) && failure.detail == "http://h/1.ts: HTTP 404")
    }

    /// Any text a channel, a guide or a path puts in a field (quotes, control characters, any script) reads back as written.
    @Test func anyTextReadsBackAsWritten() async {
        let tricky: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "/", "é", "日", "🎬", "\u{2028}", "{", "}", ","]
        let text = Gen<Character?>.element(of: tricky).map { $0! }.string(of: 0...20)
        await propertyCheck(count: 300, input: zip(text, Gen.latin1.string(of: 0...20))) { tricky, latin in
            let text = tricky + latin
            let event = PlayerEvent.guideFocus(channel: 1, start: 0, title: text)
            #expect((try? LoggedEvent(jsonLine: Self.line(event)))?.event == event, "\(Self.line(event))")
        }
    }

    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"{"event": "tune", "channel": 1}"#, "no t_ms"),
        (#"{"t_ms": 1, "event": "teleport"}"#, "no event zapper writes"),
        (#"{"t_ms": 1, "event": "volume", "level": 3}"#, "volume: no true or false muted"),
        (#"{"t_ms": 1, "event": "volume", "level": "3", "muted": false}"#, "volume: no number level"),
        (#"{"t_ms": 1, "event": "panel-closed", "reason": "boredom"}"#, "reason \"boredom\" is none of its words"),
        (#"{"t_ms": 1, "event": "load-failed", "channel": 1, "error": "x", "kind": "gremlins"}"#, "no failure is named gremlins"),
        (#"{"t_ms": 1, "event": "frame", "pts_ms": [1], "clock_ms": 1, "luma": 1}"#, "not a JSON object"),
    ])
    func aLineThatIsNoEventFailsWithItsReason(line: String, reason: String) {
        #expect(throws: EventLineError.self) { try LoggedEvent(jsonLine: line) }
        do {
            _ = try LoggedEvent(jsonLine: line)
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }
}
