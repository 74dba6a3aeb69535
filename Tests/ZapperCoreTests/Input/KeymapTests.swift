import Testing
@testable import ZapperCore

@Suite struct KeymapTests {
    @Test func everyActionNameRoundTrips() {
        for action in Action.all { #expect(Action(name: action.name) == action) }
        #expect(Action(name: "channel-up") == .channelUp)
        #expect(Action(name: "digit-5") == .digit(5))
        #expect(Action(name: "last-channel") == .lastChannel)
        #expect(Action(name: "digit-10") == nil && Action(name: "Channel-Up") == nil)
        #expect(Set(Action.all.map(\.name)).count == Action.all.count)
    }

    @Test func theDefaultsTextParsesToTheDefaults() throws {
        #expect(try Keymap.parse(Keymap.defaultsText, source: "defaults") == Keymap.defaults)
    }

    @Test func defaultsCoverEveryKindOfRemote() {
        let expected: [String: Action] = [
            "KEY_CHANNELUP": .channelUp, "KEY_CHANNELDOWN": .channelDown, "KEY_NUMERIC_7": .digit(7), "KEY_0": .digit(0),
            "KEY_OK": .ok, "KEY_SELECT": .ok, "KEY_ENTER": .ok, "KEY_BACK": .back, "KEY_ESC": .back, "KEY_EXIT": .back,
            "KEY_PREVIOUS": .lastChannel, "KEY_LAST": .lastChannel, "KEY_AGAIN": .lastChannel, "KEY_INFO": .info,
            "KEY_EPG": .guide, "KEY_MENU": .menu, "KEY_VOLUMEUP": .volumeUp, "KEY_VOLUMEDOWN": .volumeDown,
            "KEY_MUTE": .mute, "KEY_PAGEUP": .channelUp, "KEY_PAGEDOWN": .channelDown, "KEY_CONTEXT_MENU": .menu,
            "BTN_DPAD_UP": .up, "BTN_DPAD_DOWN": .down, "BTN_DPAD_LEFT": .left, "BTN_DPAD_RIGHT": .right,
            "BTN_SOUTH": .ok, "BTN_EAST": .back, "BTN_TL": .channelDown, "BTN_TR": .channelUp, "BTN_START": .menu,
            "SWIPE_UP": .panel, "SWIPE_DOWN": .back, "KEY_LEFT": .left, "KEY_UP": .up,
        ]
        for (key, action) in expected { #expect(Keymap.defaults[key] == action, "\(key)") }
        for digit in 0...9 {
            #expect(Keymap.defaults["KEY_\(digit)"] == .digit(digit))
            #expect(Keymap.defaults["KEY_NUMERIC_\(digit)"] == .digit(digit))
        }
    }

    /// A key is bound by the name its events carry (`canonical`), and one the kernel does not
    /// have is refused with its line, as is a second name for a key already bound.
    @Test func keysAreBoundByTheirCanonicalNameAndUnknownOnesRefused() throws {
        let canonical: (String) -> String? = { ["BTN_A": "BTN_SOUTH", "BTN_SOUTH": "BTN_SOUTH", "KEY_RED": "KEY_RED"][$0] }
        let keymap = try Keymap.parse("BTN_A ok\nKEY_RED panel\nSWIPE_UP back", source: "k", canonical: canonical)
        #expect(keymap.bindings == ["BTN_SOUTH": .ok, "KEY_RED": .panel, "SWIPE_UP": .back])
        for (text, reason) in [("KEY_RED ok\nKEY_REDD ok", "k:2: the kernel has no key named KEY_REDD"),
                               ("BTN_SOUTH ok\nBTN_A back", "k:2: BTN_A (BTN_SOUTH) is already bound on line 1")] {
            #expect(throws: InputProblem.self, "\(text)") { try Keymap.parse(text, source: "k", canonical: canonical) }
            do { _ = try Keymap.parse(text, source: "k", canonical: canonical) } catch { #expect(error.description == reason) }
        }
        let script = try ScriptParser.parse("press BTN_A", source: "s", canonical: canonical)
        #expect(script.map(\.command) == [.press(key: "BTN_SOUTH")])
        #expect(throws: InputProblem.self) { try ScriptParser.parse("hold KEY_REDD 100", source: "s", canonical: canonical) }
    }

    @Test func aFileOverridesExtendsAndUnbindsDefaultsPerKey() throws {
        let file = try Keymap.parse("""
            # my remote
            KEY_RED      panel
            KEY_UP       channel-up   # up flips here
            KEY_BACKSPACE none

            BTN_TRIGGER_HAPPY1 last-channel
            """, source: "my.keymap")
        let keymap = Keymap.defaults.merging(file)
        #expect(keymap["KEY_RED"] == .panel)
        #expect(keymap["KEY_UP"] == .channelUp)
        #expect(keymap["KEY_BACKSPACE"] == nil)
        #expect(keymap["BTN_TRIGGER_HAPPY1"] == .lastChannel)
        #expect(keymap["KEY_DOWN"] == .down)
        #expect(keymap.bindings.count == Keymap.defaults.bindings.count + 1)
        #expect(try Keymap.load("KEY_RED panel\nKEY_UP channel-up\nKEY_BACKSPACE none\nBTN_TRIGGER_HAPPY1 last-channel",
                                source: "my.keymap") == keymap)
    }

    @Test(arguments: [
        ("KEY_UP", "keymap:1: expected \"KEY_NAME action\", found 1 words"),
        ("KEY_UP up down", "keymap:1: expected \"KEY_NAME action\", found 3 words"),
        ("\n\nkey_up up", "keymap:3: \"key_up\" is not a key name (KEY_*, BTN_*, SWIPE_UP or SWIPE_DOWN)"),
        ("SWIPE_LEFT back", "keymap:1: \"SWIPE_LEFT\" is not a key name (KEY_*, BTN_*, SWIPE_UP or SWIPE_DOWN)"),
        ("KEY_ back", "keymap:1: \"KEY_\" is not a key name (KEY_*, BTN_*, SWIPE_UP or SWIPE_DOWN)"),
        ("KEY_A up\nKEY_A down", "keymap:2: KEY_A is already bound on line 1"),
    ])
    func badLinesNameFileLineAndReason(text: String, message: String) {
        #expect(throws: InputProblem.self) { try Keymap.parse(text, source: "keymap") }
        do {
            _ = try Keymap.parse(text, source: "keymap")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func unknownActionsListTheKnownOnes() {
        do {
            _ = try Keymap.parse("# comment\nKEY_A flip", source: "k")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.hasPrefix("unknown action \"flip\" (left, right, up, down, ok, back, channel-up"))
            #expect(error.message.hasSuffix("volume-down, mute, favourite, play-pause, pause, play, live, none)"))
        }
    }

    @Test func onlyFlipsAndVolumeRepeat() {
        #expect(Action.all.filter(\.repeats) == [.left, .right, .channelUp, .channelDown, .volumeUp, .volumeDown])
    }
}
