import PropertyBased
import Testing
import ZapperCore

/// The swipe-up panel as a layer: the keys that open it, the numbers typed in its list, what a
/// choice does and how it closes, told as effects.
struct PanelLayerTests {
    static let channels = [1, 2, 5, 7, 12, 30]

    /// A panel opened on the Channels tab, its rows counted, the focus in the list on `item`.
    static func inTheList(at item: Int = 0) -> PanelLayer {
        var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
        #expect(layer.take(.panel, now: 0, in: context()) == [.opened(.channels)])
        layer.update(itemCount: channels.count, selected: item, for: .channels)
        #expect(layer.take(.up, now: 0, in: context()) == [])
        return layer
    }

    static func context(mayOpen: Bool = true) -> PanelLayer.Context {
        PanelLayer.Context(mayOpen: mayOpen, channels: channels)
    }

    @Test(arguments: [Action.panel, .menu, .up])
    func itOpensOnItsKeysWhenItMay(_ key: Action) {
        var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
        #expect(layer.take(key, now: 0, in: Self.context(mayOpen: false)) == nil, "standby, the schedule or a number typed")
        #expect(!layer.isOpen)
        #expect(layer.take(key, now: 0, in: Self.context()) == [.opened(.channels)])
        #expect(layer.isOpen)
    }

    @Test(arguments: [Action.down, .ok, .volumeUp, .digit(3), .channelUp])
    func aClosedPanelTakesNoOtherKey(_ key: Action) {
        var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
        #expect(layer.take(key, now: 0, in: Self.context()) == nil)
    }

    @Test func okOnAChannelTunesItAndCloses() {
        var layer = Self.inTheList(at: 2)
        #expect(layer.take(.down, now: 10, in: Self.context()) == [])
        #expect(layer.take(.ok, now: 20, in: Self.context()) == [.tune(channel: 7), .recount, .closed(.chosen)])
        #expect(!layer.isOpen)
    }

    @Test func digitsInTheListMakeOneNumberUntilAPause() {
        var layer = Self.inTheList()
        #expect(layer.take(.digit(1), now: 100, in: Self.context()) == [])
        #expect(layer.focusedItem == 0)
        #expect(layer.take(.digit(2), now: 1_000, in: Self.context()) == [])
        #expect(layer.focusedItem == 4, "1 then 2 within the entry time: channel 12")
        #expect(layer.take(.digit(6), now: 3_000, in: Self.context()) == [])
        #expect(layer.focusedItem == 3, "after a pause 6 is a new number: the next after it, 7")
        #expect(layer.take(.digit(9), now: 3_100, in: Self.context()) == [])
        #expect(layer.focusedItem == 3, "69 has no channel after it: the focus stays")
    }

    @Test func thePictureTabsItemsAreTheItemsChosen() {
        var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
        _ = layer.take(.panel, now: 0, in: Self.context())
        layer.update(itemCount: PictureTabItem.all.count, selected: 0, for: .picture)
        for _ in 0..<4 { _ = layer.take(.right, now: 0, in: Self.context()) }
        #expect(layer.row == .picture)
        _ = layer.take(.up, now: 0, in: Self.context())
        for (index, item) in PictureTabItem.all.enumerated() {
            #expect(layer.take(.ok, now: 0, in: Self.context()) == [.picture(item), .recount], "item \(index)")
            #expect(layer.isOpen, "a picture choice keeps the panel")
            _ = layer.take(.down, now: 0, in: Self.context())
        }
        #expect(PictureTabItem.all.count == PictureMode.allCases.count + DeinterlaceMode.allCases.count + 2)
        #expect(PictureTabItem.at(PictureTabItem.all.count) == nil && PictureTabItem.at(-1) == nil)
    }

    @Test func theGuideTabOpensTheGuideAndCloses() {
        var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
        _ = layer.take(.panel, now: 0, in: Self.context())
        layer.update(itemCount: 1, selected: 0, for: .guide)
        for _ in 0..<5 { _ = layer.take(.right, now: 0, in: Self.context()) }
        #expect(layer.row == .guide)
        _ = layer.take(.up, now: 0, in: Self.context())
        #expect(layer.take(.ok, now: 0, in: Self.context()) == [.openGuide, .closed(.chosen)])
    }

    @Test func itClosesByKeyByTimeAndWhenAnotherModeTakesTheScreen() {
        var layer = Self.inTheList()
        #expect(layer.take(.back, now: 0, in: Self.context()) == [], "Back from the list goes to the tabs")
        #expect(layer.take(.back, now: 0, in: Self.context()) == [.closed(.key)])
        _ = layer.take(.menu, now: 1_000, in: Self.context())
        #expect(layer.tick(now: 1_000 + PanelNavigator.inactivityMs - 1, in: Self.context()) == [])
        #expect(layer.tick(now: 1_000 + PanelNavigator.inactivityMs, in: Self.context()) == [.closed(.inactive)])
        #expect(layer.close(.inactive) == [], "closing a closed panel says nothing")
        _ = layer.take(.up, now: 20_000, in: Self.context())
        #expect(layer.close(.key) == [.closed(.key)])
    }

    /// Whatever keys come, the panel says it closed exactly when it goes from open to closed,
    /// and the channels it tunes are the list's.
    @Test func closingIsToldOnceAndOnlyListedChannelsAreTuned() async {
        let keys: [Action] = [.panel, .menu, .up, .down, .left, .right, .ok, .back, .digit(1), .digit(7), .channelUp, .volumeUp]
        await propertyCheck(input: Gen.int(in: 0...(keys.count - 1)).array(of: 1...60)) { picks in
            var layer = PanelLayer(entryTimeout: 1_500, maxDigits: 4)
            for (step, pick) in picks.enumerated() {
                let wasOpen = layer.isOpen
                let effects = layer.take(keys[pick], now: step * 400, in: Self.context()) ?? []
                layer.update(itemCount: Self.channels.count, selected: 0, for: .channels)
                let closings = effects.filter { if case .closed = $0 { true } else { false } }.count
                #expect(closings == (wasOpen && !layer.isOpen ? 1 : 0), "\(picks)")
                for case .tune(let channel) in effects { #expect(Self.channels.contains(channel)) }
            }
        }
    }
}
