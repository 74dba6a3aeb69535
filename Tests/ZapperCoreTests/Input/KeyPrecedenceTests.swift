import Testing
import ZapperCore

/// Who is offered a key first: standby, the PIN card, a long press, the guide, the panel, a reminder, the tuner.
struct KeyPrecedenceTests {
    @Test func onAPlainPictureEveryLayerIsOfferedTheKeyAndTheTunerLast() {
        #expect(KeyPrecedence.pressed(.channelUp, in: KeyScene()) == [.guide, .panel, .reminder, .transport, .tuner])
        #expect(KeyPrecedence.pressed(.digit(4), in: KeyScene()) == [.guide, .panel, .reminder, .transport, .tuner])
    }

    @Test func inStandbyAKeyOnlyWakesTheBox() {
        for action in Action.all {
            #expect(KeyPrecedence.pressed(action, in: KeyScene(standby: true, locked: true, guideOpen: true)) == [.standby])
        }
        #expect(KeyPrecedence.repeated(in: KeyScene(standby: true)).isEmpty)
    }

    @Test func aLockedChannelsPINCardComesBeforeEverythingElse() {
        #expect(KeyPrecedence.pressed(.digit(1), in: KeyScene(locked: true)).first == .parental)
        #expect(KeyPrecedence.pressed(.info, in: KeyScene(locked: true)) == [.parental, .longPress])
    }

    @Test func infoAlwaysAndOKOnAChannelWaitToSeeWhetherTheyAreHeld() {
        #expect(KeyPrecedence.pressed(.info, in: KeyScene()) == [.longPress])
        #expect(KeyPrecedence.pressed(.ok, in: KeyScene()) == [.guide, .panel, .reminder, .transport, .tuner])
        #expect(KeyPrecedence.pressed(.ok, in: KeyScene(guideOpen: true)) == [.longPress])
        #expect(KeyPrecedence.pressed(.ok, in: KeyScene(panelOpen: true)) == [.guide, .panel, .reminder, .transport, .tuner])
        #expect(KeyPrecedence.pressed(.ok, in: KeyScene(panelOpen: true, channelInFocus: true)) == [.longPress])
        // Let go before the long press: the short meaning goes on to the layers.
        #expect(KeyPrecedence.pressed(.ok, in: KeyScene(guideOpen: true), released: true) == [.guide, .panel, .reminder, .transport, .tuner])
    }

    @Test func aHeldKeyRepeatsInTheGuideOrThePanelWhenUpElseFlips() {
        #expect(KeyPrecedence.repeated(in: KeyScene()) == [.tuner])
        #expect(KeyPrecedence.repeated(in: KeyScene(guideOpen: true)) == [.guide, .tuner])
        #expect(KeyPrecedence.repeated(in: KeyScene(panelOpen: true)) == [.panel, .tuner])
    }
}
