import Testing
import ZapperCore
import ZapperInput

@Suite struct KeyTranslatorTests {
    let device = "AT Translated Set 2 keyboard"

    @Test func autorepeatIsDroppedSoAHeldKeyIsOnePressAndOneRelease() {
        var translator = KeyTranslator(device: device)
        let stream = [key("KEY_RIGHT", 1, at: 0.0), syn(), key("KEY_RIGHT", 2, at: 0.25), syn(),
                      key("KEY_RIGHT", 2, at: 0.28), syn(), key("KEY_RIGHT", 2, at: 0.31), syn(),
                      key("KEY_RIGHT", 0, at: 0.4), syn()]
        #expect(stream.compactMap { translator.translate($0) } == [press("KEY_RIGHT", device), release("KEY_RIGHT", device)])
    }

    @Test(arguments: ["KEY_NUMERIC_5", "KEY_CHANNELUP", "KEY_CHANNELDOWN", "KEY_5", "KEY_PREVIOUS", "KEY_BACK"])
    func remoteKeysKeepTheKernelsName(name: String) {
        var translator = KeyTranslator(device: "rc-core loopback device")
        let events = [key(name, 1), syn(), key(name, 0), syn()].compactMap { translator.translate($0) }
        #expect(events == [press(name, "rc-core loopback device"), release(name, "rc-core loopback device")])
    }

    @Test func overlappingKeysAreEachPressedAndReleased() {
        var translator = KeyTranslator(device: device)
        let events = [key("KEY_LEFTSHIFT", 1), key("KEY_A", 1), key("KEY_A", 2), key("KEY_LEFTSHIFT", 0), key("KEY_A", 0)]
            .compactMap { translator.translate($0) }
        #expect(events.map(\.description) == [
            "KEY_LEFTSHIFT press (\(device))", "KEY_A press (\(device))",
            "KEY_LEFTSHIFT release (\(device))", "KEY_A release (\(device))",
        ])
    }

    @Test func aReleaseWithoutItsPressIsDropped() {
        // A key held while the device was opened: its release alone would be a stray.
        var translator = KeyTranslator(device: device)
        #expect(translator.translate(key("KEY_ENTER", 0)) == nil)
        #expect(translator.translate(key("KEY_ENTER", 1)) == press("KEY_ENTER", device))
        #expect(translator.translate(key("KEY_ENTER", 1)) == nil)
    }

    @Test func unpluggingReleasesWhatIsHeld() {
        var translator = KeyTranslator(device: device)
        _ = translator.translate(key("KEY_UP", 1))
        _ = translator.translate(key("KEY_CHANNELUP", 1))
        _ = translator.translate(key("KEY_UP", 0))
        #expect(translator.releaseAll() == [release("KEY_CHANNELUP", device)])
        #expect(translator.releaseAll().isEmpty)
    }

    @Test func otherEventTypesAreNotKeys() {
        var translator = KeyTranslator(device: device)
        #expect(translator.translate(ev("EV_MSC", "MSC_SCAN", 0x40)) == nil)
        #expect(translator.translate(syn()) == nil)
        #expect(translator.translate(ev("EV_LED", "LED_NUML", 1)) == nil)
    }
}

@Suite struct EvdevCodesTests {
    @Test func keymapNamesBecomeTheNamesEventsCarry() {
        #expect(EvdevCodes.canonicalKeyName("BTN_A") == "BTN_SOUTH")
        #expect(EvdevCodes.canonicalKeyName("BTN_B") == "BTN_EAST")
        #expect(EvdevCodes.canonicalKeyName("KEY_CHANNELUP") == "KEY_CHANNELUP")
        #expect(EvdevCodes.canonicalKeyName("KEY_NUMERIC_5") == "KEY_NUMERIC_5")
        #expect(EvdevCodes.canonicalKeyName("KEY_NO_SUCH_KEY") == nil)
        #expect(EvdevCodes.canonicalKeyName("SWIPE_UP") == nil)          // a pseudo key, not the kernel's
        // The translator names a gamepad's A button the same way.
        var translator = KeyTranslator(device: "pad")
        #expect(translator.translate(key("BTN_A", 1))?.name == EvdevCodes.canonicalKeyName("BTN_A"))
    }
}

/// Keymap and script key names against libevdev's tables, as `zapper` reads them.
@Suite struct KernelKeyNameTests {
    @Test func everyDefaultKeyIsTheNameItsEventsCarry() {
        for key in Keymap.defaults.bindings.keys where !key.hasPrefix("SWIPE_") {
            #expect(EvdevCodes.canonicalKeyName(key) == key, "\(key)")
        }
    }

    @Test func anAliasIsBoundByItsEventNameAndATypoIsRefusedWithItsLine() throws {
        let keymap = try Keymap.load("BTN_A ok\nKEY_RED panel", source: "remote.keymap", canonical: EvdevCodes.canonicalKeyName)
        #expect(keymap["BTN_SOUTH"] == .ok)
        #expect(keymap["BTN_A"] == nil)
        #expect(keymap["KEY_RED"] == .panel)
        do {
            _ = try Keymap.load("KEY_UP up\nKEY_CHANELUP channel-up", source: "remote.keymap", canonical: EvdevCodes.canonicalKeyName)
            Issue.record("a key the kernel does not have was accepted")
        } catch {
            #expect(error.description == "remote.keymap:2: the kernel has no key named KEY_CHANELUP")
        }
        #expect(throws: InputProblem.self) {
            try ScriptParser.parse("press KEY_CHANELUP", source: "s", canonical: EvdevCodes.canonicalKeyName)
        }
    }
}
