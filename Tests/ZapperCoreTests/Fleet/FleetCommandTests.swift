import Foundation
import Testing
@testable import ZapperCore

/// Commands as they come over MQTT: good payloads in the forms Home Assistant and people
/// send, and hostile ones refused with a reason (never a trap).
@Suite struct FleetCommandTests {
    func parse(_ verb: String, _ payload: String) -> Result<FleetCommand, FleetRefusal> {
        FleetCommand.parse(verb: verb, payload: Array(payload.utf8))
    }

    func refusal(_ verb: String, _ payload: String) -> String? {
        if case .failure(let refusal) = parse(verb, payload) { return refusal.description }
        return nil
    }

    @Test func goodPayloads() throws {
        #expect(try parse("tune", "5").get() == .remote(.tune(channel: 5)))
        #expect(try parse("tune", " 12\n").get() == .remote(.tune(channel: 12)))
        #expect(try parse("tune", "5 BBC One HD").get() == .remote(.tune(channel: 5)), "Home Assistant's select option")
        #expect(try parse("tune", #"{"channel": 7}"#).get() == .remote(.tune(channel: 7)))
        #expect(try parse("next", "PRESS").get() == .remote(.next))
        #expect(try parse("previous", "").get() == .remote(.previous))
        #expect(try parse("volume", "40").get() == .remote(.volume(40)))
        #expect(try parse("volume", "40.0").get() == .remote(.volume(40)), "Home Assistant's number may send a float")
        #expect(try parse("volume", #"{"level": 0}"#).get() == .remote(.volume(0)))
        #expect(try parse("mute", "ON").get() == .remote(.mute(true)))
        #expect(try parse("mute", "off").get() == .remote(.mute(false)))
        #expect(try parse("mute", "true").get() == .remote(.mute(true)))
        #expect(try parse("mute", #"{"muted": false}"#).get() == .remote(.mute(false)))
        #expect(try parse("key", "KEY_OK").get() == .remote(.key("KEY_OK")))
        #expect(try parse("key", #"{"name": "KEY_CHANNELUP"}"#).get() == .remote(.key("KEY_CHANNELUP")))
        #expect(try parse("screenshot", "").get() == .screenshot(upload: nil))
        #expect(try parse("screenshot", "https://shots.example.net/box1.png").get()
            == .screenshot(upload: URL(string: "https://shots.example.net/box1.png")))
        #expect(try parse("screenshot", #"{"url": "http://10.0.0.2:8080/s.png"}"#).get()
            == .screenshot(upload: URL(string: "http://10.0.0.2:8080/s.png")))
        #expect(try parse("reload", "").get() == .reload)
    }

    @Test func hostilePayloadsAreRefusedWithAReason() {
        #expect(refusal("tune", "-3") == "a channel number must be within 1…999999999, not -3")
        #expect(refusal("tune", "0") == "a channel number must be within 1…999999999, not 0")
        #expect(refusal("tune", "99999999999999999999999") == "a channel number must be within 1…999999999, not 99999999999999999999999")
        #expect(refusal("tune", "five") == "five is not a channel number")
        #expect(refusal("tune", "2.5") == "2.5 is not a channel number")
        #expect(refusal("tune", "nan") == "nan is not a channel number")
        #expect(refusal("tune", "inf") == "inf is not a channel number")
        #expect(refusal("tune", #"{"channel": true}"#) == "true is not a channel number")
        #expect(refusal("tune", #"{"channel": [1]}"#) == "an object or array is not a channel number")
        #expect(refusal("tune", #"{"number": 3}"#) == "the JSON object has no \"channel\"")
        #expect(refusal("tune", #"{"channel": 3"#) == "the payload is not a JSON object")
        #expect(refusal("volume", "101") == "a volume must be within 0…100, not 101")
        #expect(refusal("volume", "1e308") == "a volume must be within 0…100, not 1e308")
        #expect(refusal("mute", "maybe") == "mute takes ON, OFF, true or false, not maybe")
        #expect(refusal("key", "rm -rf /") == "rm -rf / is not a key name (KEY_…)")
        #expect(refusal("key", "KEY_\u{1b}[2J") == "KEY_?[2J is not a key name (KEY_…)")
        #expect(refusal("screenshot", "file:///etc/passwd") == "file:///etc/passwd is not an http(s) URL to PUT the screenshot to")
        #expect(refusal("screenshot", "http://" + String(repeating: "a", count: 3000)) == "the screenshot's URL is longer than 2048 bytes")
        #expect(refusal("format", "") == "no command \"format\" (known: tune, next, previous, key, volume, mute, screenshot, reload)")
        #expect(FleetCommand.parse(verb: "tune", payload: [0xff, 0xfe, 0x31]).failureReason == "the payload is not UTF-8 text")
        let huge = [UInt8](repeating: UInt8(ascii: "1"), count: 1 << 20)
        #expect(FleetCommand.parse(verb: "tune", payload: huge).failureReason == "a payload of 1048576 bytes is over 4096")
    }

    /// Whatever the bytes, parsing answers (a command or a reason) and never traps.
    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2000 {
            let verb = FleetCommand.verbs[round % FleetCommand.verbs.count]
            let count = Int.random(in: 0...64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 3 == 0 { bytes = Array("{\"channel\": ".utf8) + bytes }
            _ = FleetCommand.parse(verb: verb, payload: bytes)
        }
    }
}

extension Result where Failure == FleetRefusal {
    var failureReason: String? {
        if case .failure(let refusal) = self { return refusal.description }
        return nil
    }
}
