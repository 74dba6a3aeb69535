import CSDL2
import Testing
import ZapperCore
import ZapperInput
import ZapperWindow

/// The window's keys carry the names evdev keyboards' keys carry, so one keymap serves both.
struct WindowKeysTests {
    @Test func everyNameIsTheKernelsOwn() {
        #expect(WindowKeys.scancodes.count > 100)
        for scancode in WindowKeys.scancodes {
            let name = WindowKeys.name(scancode: scancode) ?? "-"
            #expect(EvdevCodes.canonicalKeyName(name) == name, "scancode \(scancode): \(name)")
        }
    }

    @Test func aLaptopKeyboardReachesTheDefaultKeymap() {
        let expected: [(SDL_Scancode, String, Action)] = [
            (SDL_SCANCODE_UP, "KEY_UP", .up), (SDL_SCANCODE_DOWN, "KEY_DOWN", .down),
            (SDL_SCANCODE_LEFT, "KEY_LEFT", .left), (SDL_SCANCODE_RIGHT, "KEY_RIGHT", .right),
            (SDL_SCANCODE_RETURN, "KEY_ENTER", .ok), (SDL_SCANCODE_KP_ENTER, "KEY_KPENTER", .ok),
            (SDL_SCANCODE_ESCAPE, "KEY_ESC", .back), (SDL_SCANCODE_BACKSPACE, "KEY_BACKSPACE", .back),
            (SDL_SCANCODE_PAGEUP, "KEY_PAGEUP", .channelUp), (SDL_SCANCODE_PAGEDOWN, "KEY_PAGEDOWN", .channelDown),
            (SDL_SCANCODE_1, "KEY_1", .digit(1)), (SDL_SCANCODE_9, "KEY_9", .digit(9)), (SDL_SCANCODE_0, "KEY_0", .digit(0)),
            (SDL_SCANCODE_I, "KEY_I", .info), (SDL_SCANCODE_G, "KEY_G", .guide), (SDL_SCANCODE_M, "KEY_M", .menu),
            (SDL_SCANCODE_AUDIOMUTE, "KEY_MUTE", .mute), (SDL_SCANCODE_VOLUMEUP, "KEY_VOLUMEUP", .volumeUp),
            (SDL_SCANCODE_VOLUMEDOWN, "KEY_VOLUMEDOWN", .volumeDown), (SDL_SCANCODE_AC_BACK, "KEY_BACK", .back),
        ]
        for (scancode, name, action) in expected {
            #expect(WindowKeys.name(scancode: scancode.rawValue) == name)
            #expect(Keymap.defaults[name] == action, "\(name)")
        }
    }

    @Test func repeatsAndUnmatchedReleasesAreDropped() {
        var keys = WindowKeys()
        let up = SDL_SCANCODE_PAGEUP.rawValue
        #expect(keys.key(scancode: up, down: false, isRepeat: false) == nil, "a release whose press was not seen")
        #expect(keys.key(scancode: up, down: true, isRepeat: false) == KeyEvent(name: "KEY_PAGEUP", kind: .press, device: "window"))
        #expect(keys.key(scancode: up, down: true, isRepeat: true) == nil, "SDL's repeat: the core times repeats")
        #expect(keys.key(scancode: up, down: true, isRepeat: false) == nil, "a second press while held")
        #expect(keys.key(scancode: up, down: false, isRepeat: false) == KeyEvent(name: "KEY_PAGEUP", kind: .release, device: "window"))
        #expect(keys.key(scancode: SDL_SCANCODE_UNKNOWN.rawValue, down: true, isRepeat: false) == nil)
    }

    @Test func losingTheKeyboardReleasesWhatIsHeld() {
        var keys = WindowKeys()
        _ = keys.key(scancode: SDL_SCANCODE_RIGHT.rawValue, down: true, isRepeat: false)
        _ = keys.key(scancode: SDL_SCANCODE_5.rawValue, down: true, isRepeat: false)
        #expect(keys.releaseAll().map(\.description) == ["KEY_RIGHT release (window)", "KEY_5 release (window)"])
        #expect(keys.releaseAll().isEmpty)
        #expect(keys.key(scancode: SDL_SCANCODE_RIGHT.rawValue, down: false, isRepeat: false) == nil)
    }
}
