import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct PanelNavigatorTests {
    /// 5 channels playing the 3rd, 2 audio renditions using the 2nd, "Off" + 1
    /// subtitle with Off chosen, picture on fill.
    func navigator() -> PanelNavigator {
        PanelNavigator(itemCounts: [.channels: 5, .info: 0, .audio: 2, .subtitles: 2, .picture: 3],
                       selected: [.channels: 2, .audio: 1, .subtitles: 0, .picture: 1])
    }

    @Test func opensOnTheChannelsTabThenOnTheLastUsedTab() {
        var panel = navigator()
        #expect(!panel.isOpen)
        panel.open(now: 0)
        #expect(panel.isOpen && panel.row == .channels && panel.focusedItem == nil)
        #expect(panel.handle(.right, now: 1) == .moved)
        #expect(panel.handle(.right, now: 2) == .moved)
        #expect(panel.row == .audio)
        #expect(panel.handle(.back, now: 3) == .closed)
        panel.open(now: 4)
        #expect(panel.row == .audio && panel.focusedItem == nil)
    }

    @Test func tabsChangeWithoutWrapping() {
        var panel = navigator()
        panel.open(now: 0)
        #expect(panel.handle(.left, now: 0) == .none)
        for expected in PanelRow.standard.dropFirst() {
            #expect(panel.handle(.right, now: 0) == .moved)
            #expect(panel.row == expected)
        }
        #expect(panel.handle(.right, now: 0) == .none)
        #expect(panel.row == .guide)
    }

    /// With the HTTP API, Phone is the last tab: it only shows (Up and OK do nothing there).
    @Test func thePhoneTabComesLastWhenItIsThere() {
        var panel = PanelNavigator(tabs: PanelRow.standard + [.phone], itemCounts: [.channels: 3, .guide: 1])
        #expect(panel.tabs.last == .phone && !PanelRow.standard.contains(.phone))
        panel.open(now: 0)
        for _ in PanelRow.standard { _ = panel.handle(.right, now: 0) }
        #expect(panel.row == .phone)
        #expect(panel.handle(.right, now: 0) == .none)
        #expect(panel.handle(.up, now: 0) == .none && panel.handle(.ok, now: 0) == .none)
        #expect(panel.focusedItem == nil)
        #expect(panel.handle(.left, now: 0) == .moved && panel.row == .guide)
    }

    @Test func upEntersTheItemsAtTheCurrentChoice() {
        var panel = navigator()
        panel.open(now: 0)
        #expect(panel.handle(.up, now: 0) == .moved)
        #expect(panel.focusedItem == 2)  // the playing channel
        _ = panel.handle(.back, now: 0)
        _ = panel.handle(.right, now: 0)
        _ = panel.handle(.right, now: 0)
        #expect(panel.handle(.up, now: 0) == .moved)
        #expect(panel.row == .audio && panel.focusedItem == 1)  // the chosen audio
    }

    /// In a list, CH± turns a page (clamped at its ends); on the tab strip it is not the panel's.
    @Test func channelKeysTurnAPageOfTheList() {
        var panel = PanelNavigator(itemCounts: [.channels: 20], selected: [.channels: 8])
        panel.open(now: 0)
        #expect(panel.handle(.channelDown, now: 0) == .unhandled, "on the tab strip CH- still flips")
        _ = panel.handle(.up, now: 0)
        #expect(panel.handle(.channelDown, now: 0) == .moved && panel.focusedItem == 8 + PanelNavigator.pageSize)
        _ = panel.handle(.channelDown, now: 0)
        #expect(panel.focusedItem == 19)
        _ = panel.handle(.channelUp, now: 0)
        #expect(panel.focusedItem == 19 - PanelNavigator.pageSize)
        for _ in 0..<5 { _ = panel.handle(.channelUp, now: 0) }
        #expect(panel.focusedItem == 0)
    }

    @Test func aNumberTypedInTheListFindsItsChannel() {
        // Favourites 7 and 2 first, then the groups.
        let numbers = [7, 2, 1, 2, 3, 7, 10, 12]
        #expect(PanelNavigator.item(for: 2, in: numbers) == 3, "in its own group, not under Favourites")
        #expect(PanelNavigator.item(for: 11, in: numbers) == 7, "no 11: the next number after it")
        #expect(PanelNavigator.item(for: 99, in: numbers) == nil)
    }

    @Test func infoHasNoItemsToEnter() {
        var panel = navigator()
        panel.open(now: 0)
        _ = panel.handle(.right, now: 0)
        #expect(panel.row == .info)
        #expect(panel.handle(.up, now: 0) == .none)
        #expect(panel.focusedItem == nil)
    }

    @Test func upAndDownMoveInTheItemsAndDownFromTheBottomReturnsToTheTabs() {
        var panel = navigator()
        panel.open(now: 0)
        _ = panel.handle(.up, now: 0)  // channel 2
        #expect(panel.handle(.up, now: 0) == .moved)
        #expect(panel.handle(.up, now: 0) == .moved)
        #expect(panel.focusedItem == 0)
        #expect(panel.handle(.up, now: 0) == .none)  // top: no wrap
        for expected in 1...4 {
            #expect(panel.handle(.down, now: 0) == .moved)
            #expect(panel.focusedItem == expected)
        }
        #expect(panel.handle(.down, now: 0) == .moved)
        #expect(panel.focusedItem == nil && panel.isOpen)
        #expect(panel.handle(.down, now: 0) == .closed)
        #expect(!panel.isOpen)
    }

    @Test func leftAndRightInTheItemsKeepFocusInTheItems() {
        var panel = navigator()
        panel.open(now: 0)
        _ = panel.handle(.up, now: 0)
        #expect(panel.handle(.right, now: 0) == .moved)
        #expect(panel.row == .info && panel.focusedItem == nil)  // Info has none: the tab strip
        _ = panel.handle(.up, now: 0)
        #expect(panel.focusedItem == nil)
        var inItems = navigator()
        inItems.open(now: 0)
        _ = inItems.handle(.right, now: 0)
        _ = inItems.handle(.right, now: 0)
        _ = inItems.handle(.up, now: 0)  // audio 1
        #expect(inItems.handle(.right, now: 0) == .moved)
        #expect(inItems.row == .subtitles && inItems.focusedItem == 0)  // "Off", the current choice
        #expect(inItems.handle(.right, now: 0) == .moved)
        #expect(inItems.row == .picture && inItems.focusedItem == 1)  // fill
    }

    @Test func okActivatesAndChannelsClose() {
        var panel = navigator()
        panel.open(now: 0)
        for _ in 0..<4 { _ = panel.handle(.right, now: 0) }
        _ = panel.handle(.up, now: 0)
        _ = panel.handle(.down, now: 0)
        #expect(panel.handle(.ok, now: 0) == .activate(.picture, 2))
        #expect(panel.isOpen && panel.selected(for: .picture) == 2)
        _ = panel.handle(.back, now: 0)
        #expect(panel.focusedItem == nil)
        #expect(panel.handle(.up, now: 0) == .moved)
        #expect(panel.focusedItem == 2)  // the new choice
        for _ in 0..<4 { _ = panel.handle(.left, now: 0) }
        // Passing Info, which has no items, left focus on the tab strip.
        #expect(panel.row == .channels && panel.focusedItem == nil)
        _ = panel.handle(.up, now: 0)  // the playing channel, 2
        _ = panel.handle(.up, now: 0)
        #expect(panel.handle(.ok, now: 0) == .activate(.channels, 1))
        #expect(!panel.isOpen)
    }

    @Test func backReturnsToTheTabsThenCloses() {
        var panel = navigator()
        panel.open(now: 0)
        _ = panel.handle(.up, now: 0)
        #expect(panel.handle(.back, now: 0) == .moved)
        #expect(panel.isOpen && panel.focusedItem == nil)
        #expect(panel.handle(.back, now: 0) == .closed)
        panel.open(now: 0)
        #expect(panel.handle(.panel, now: 0) == .closed)
    }

    @Test func otherActionsAreLeftToThePlayer() {
        var panel = navigator()
        #expect(panel.handle(.up, now: 0) == .unhandled)  // closed
        panel.open(now: 0)
        for action in [Action.channelUp, .channelDown, .volumeUp, .mute, .digit(3)] {
            #expect(panel.handle(action, now: 0) == .unhandled)
        }
        #expect(panel.isOpen)
    }

    @Test func closesAfterTenSecondsWithoutAPanelAction() {
        var panel = navigator()
        panel.open(now: 1_000)
        #expect(panel.tick(now: 10_999) == .none)
        _ = panel.handle(.right, now: 10_000)
        #expect(panel.tick(now: 19_999) == .none)
        _ = panel.handle(.volumeUp, now: 19_000)  // not the panel's: no extension
        #expect(panel.tick(now: 20_000) == .closed)
        #expect(!panel.isOpen)
        #expect(panel.tick(now: 40_000) == .none)
    }

    @Test func newItemsClampTheFocus() {
        var panel = navigator()
        panel.open(now: 0)
        _ = panel.handle(.right, now: 0)
        _ = panel.handle(.right, now: 0)
        _ = panel.handle(.up, now: 0)
        #expect(panel.focusedItem == 1)
        panel.update(itemCount: 1, selected: 0, for: .audio)  // another channel, one audio
        #expect(panel.focusedItem == 0)
        panel.update(itemCount: 0, selected: nil, for: .audio)
        #expect(panel.focusedItem == nil && panel.isOpen)
        #expect(panel.handle(.up, now: 0) == .none)
    }

    static let actions: [Action] = [.left, .right, .up, .down, .ok, .back, .panel, .volumeUp]

    /// Whatever is pressed, focus is on the tab strip or on an item that
    /// exists, a closed panel has no focus, and from anywhere Down closes the
    /// panel within the row's item count + 1 presses.
    @Test func focusStaysOnSomethingThatExists() async {
        let counts = Gen.int(in: 0...6).array(of: 5...5)
        let presses = Gen.int(in: 0...(Self.actions.count - 1)).array(of: 0...60)
        await propertyCheck(count: 400, input: counts, presses, Gen.int(in: -1...7)) { counts, presses, choice in
            let rows = PanelRow.allCases
            var panel = PanelNavigator(tabs: rows, itemCounts: Dictionary(uniqueKeysWithValues: zip(rows, counts)),
                                       selected: Dictionary(uniqueKeysWithValues: rows.map { ($0, choice) }))
            panel.open(now: 0)
            for (time, press) in presses.enumerated() {
                let action = Self.actions[press]
                let wasOpen = panel.isOpen
                let outcome = panel.handle(action, now: time)
                if !wasOpen { #expect(outcome == .unhandled) }
                if !panel.isOpen {
                    #expect(panel.focusedItem == nil)
                    panel.open(now: time)
                }
                if let focused = panel.focusedItem {
                    #expect((0..<panel.itemCount(for: panel.row)).contains(focused))
                }
                if case .activate(let row, let index) = outcome {
                    #expect((0..<panel.itemCount(for: row)).contains(index))
                }
            }
            var downs = 0
            while panel.isOpen, downs <= 10 {
                _ = panel.handle(.down, now: 0)
                downs += 1
            }
            #expect(!panel.isOpen)
            #expect(downs <= panel.itemCount(for: panel.row) + 1)
        }
    }
}
