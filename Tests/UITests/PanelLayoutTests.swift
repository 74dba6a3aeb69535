import Testing
import ZapperCore

/// The panel's, hint's, locked card's and subtitles' geometry (pure, from
/// ZapperCore): inside the title-safe area at any mode, the focus always shown.
@Suite struct PanelLayoutTests {
    static let modes = OverlayLayoutTests.modes.map { [$0.0, $0.1] }

    /// Every page, plus a long scrolled list with the focus at its end and an empty one.
    static let contents: [PanelContent] = PanelFixtures.pages.map(\.1) + [
        PanelContent(selectedTab: .channels, focusedItem: 39, page: .channels(PanelFixtures.longList())),
        PanelContent(selectedTab: .channels, page: .channels(PanelFixtures.longList())),
        PanelContent(selectedTab: .audio, focusedItem: nil, page: .choices([])),
    ]

    /// Every rectangle the panel draws in, named.
    func drawnRects(_ frame: OverlayLayout.Panel) -> [(String, Rect)] {
        var rects: [(String, Rect)] = [("panel", frame.panel), ("divider", frame.divider), ("page", frame.page)]
        rects += frame.tabs.map { ("tab", $0) }
        rects += frame.rows.map { ("row", $0) }
        rects += [frame.focusRing, frame.moreAbove, frame.moreBelow].compactMap { $0 }.map { ("mark or ring", $0) }
        if let info = frame.info {
            rects += [("header", info.header), ("title", info.title), ("subtitle", info.subtitle),
                      ("description", info.description), ("time", info.time), ("bar", info.progressBar)]
        }
        return rects
    }

    @Test(arguments: modes)
    func panelIsInsideTheSafeAreaAndItsPartsInsideIt(mode: [Int]) {
        let layout = OverlayLayout(width: mode[0], height: mode[1])
        for content in Self.contents {
            let frame = layout.panel(content)
            for (name, rect) in drawnRects(frame) {
                #expect(layout.safe.contains(rect), "\(name) \(rect) leaves the safe area \(layout.safe) at \(mode)")
                #expect(frame.panel.contains(rect), "\(name) \(rect) leaves the panel at \(mode)")
                #expect(!rect.isEmpty, "\(name) is empty at \(mode)")
            }
            // The page is above the tab strip; rows never overlap the tabs.
            for tab in frame.tabs { #expect(frame.page.maxY < tab.minY) }
            for row in frame.rows { #expect(frame.page.contains(row)) }
            #expect(frame.rows.count <= OverlayLayout.PanelMetrics.visibleRows)
        }
    }

    /// The offline badge stays in the safe area and meets neither the logo bug nor the sound level.
    @Test(arguments: modes)
    func theOfflineBadgeHasItsOwnCorner(mode: [Int]) {
        let layout = OverlayLayout(width: mode[0], height: mode[1])
        let badge = layout.offlineBadge()
        #expect(layout.safe.contains(badge))
        #expect(badge.contains(layout.offlineDot()))
        #expect(badge.intersection(layout.logoBug()) == nil)
        #expect(badge.intersection(layout.volume().panel) == nil)
    }

    @Test(arguments: modes)
    func hintLockedCardAndSubtitlesAreInsideTheSafeArea(mode: [Int]) {
        let layout = OverlayLayout(width: mode[0], height: mode[1])
        #expect(layout.safe.contains(layout.hint()))
        let band = layout.subtitles().band
        #expect(layout.safe.contains(band) && !band.isEmpty)
        #expect(band.maxY == layout.safe.maxY && abs(band.midX - layout.safe.midX) < 1e-9)
        for pin in [1, 4, 6, 12] {
            let locked = layout.locked(pinLength: pin)
            #expect(locked.backdrop == layout.screen)
            #expect(locked.slots.count == pin)
            for (name, rect) in [("card", locked.card), ("logo", locked.logo), ("title", locked.title),
                                 ("reason", locked.reason), ("message", locked.message)] + locked.slots.map({ ("slot", $0) }) {
                #expect(layout.safe.contains(rect), "\(name) \(rect) at \(mode), PIN of \(pin)")
                #expect(locked.card.contains(rect), "\(name) leaves the card")
                #expect(!rect.isEmpty)
            }
            for (a, b) in zip(locked.slots, locked.slots.dropFirst()) { #expect(a.maxX < b.minX) }
        }
    }

    /// Wherever the focus goes in a long list, its row is shown with the ring on it.
    @Test func theListScrollsSoTheFocusedRowIsShown() {
        let layout = OverlayLayout(width: 1280, height: 720)
        let rows = PanelFixtures.longList()
        let page = PanelContent.Page.channels(rows)
        #expect(page.itemCount == 40 && page.rowCount == 50)
        var firstRows: Set<Int> = []
        for item in 0..<page.itemCount {
            let content = PanelContent(selectedTab: .channels, focusedItem: item, page: page)
            let frame = layout.panel(content)
            let row = page.row(ofItem: item)!
            #expect(rows[row].channel != nil)
            #expect((frame.firstRow..<frame.firstRow + frame.rows.count).contains(row), "item \(item)")
            #expect(frame.focusRing == frame.rows[row - frame.firstRow].insetBy(dx: -layout.units(4), dy: -layout.units(4)))
            #expect((frame.moreAbove != nil) == (frame.firstRow > 0))
            #expect((frame.moreBelow != nil) == (frame.firstRow + frame.rows.count < rows.count))
            firstRows.insert(frame.firstRow)
        }
        #expect(firstRows.count > 10, "the list scrolled")
        // With the focus on the tabs, the playing channel is in view and the ring is on the tab.
        let resting = layout.panel(PanelContent(selectedTab: .channels, page: page))
        let playing = page.restingRow
        #expect(rows[playing].channel?.isPlaying == true)
        #expect((resting.firstRow..<resting.firstRow + resting.rows.count).contains(playing))
        #expect(resting.focusRing == resting.tabs[0].insetBy(dx: -layout.units(4), dy: -layout.units(4)))
    }

    @Test func focusRingIsOnTheSelectedTabOrTheFocusedItem() {
        let layout = OverlayLayout(width: 1920, height: 1080)
        let onTabs = layout.panel(PanelFixtures.picture)
        let tab = PanelRow.allCases.firstIndex(of: .picture)!
        #expect(onTabs.focusRing == onTabs.tabs[tab].insetBy(dx: -4, dy: -4))
        let onItem = layout.panel(PanelFixtures.audio)
        #expect(onItem.focusRing == onItem.rows[1].insetBy(dx: -4, dy: -4))
        // An item that does not exist shows no ring rather than a wrong one.
        var missing = PanelFixtures.audio
        missing.focusedItem = 9
        #expect(layout.panel(missing).focusRing == nil)
    }

    @Test func itemsSkipHeadingsAndTheRestingRowIsTheCurrentOne() {
        let page = PanelContent.Page.channels(PanelFixtures.channelRows)
        #expect(page.itemCount == 6)
        #expect((0..<6).map { page.row(ofItem: $0)! } == [1, 2, 4, 5, 7, 8])
        #expect(page.row(ofItem: 6) == nil && page.row(ofItem: -1) == nil)
        #expect(page.restingRow == 1)
        let choices = PanelContent.Page.choices([PanelChoice(label: "a"), PanelChoice(label: "b", isCurrent: true)])
        #expect(choices.itemCount == 2 && choices.restingRow == 1 && choices.row(ofItem: 1) == 1)
        let info = PanelContent.Page.info(PanelProgrammeInfo(channelName: "x"))
        #expect(info.itemCount == 0 && info.rowCount == 0 && info.row(ofItem: 0) == nil)
        #expect(LockedCard(channel: Fixtures.nova, reason: "r", pinLength: 4, typedCount: 9).slots == [true, true, true, true])
        #expect(LockedCard(channel: Fixtures.nova, reason: "r", pinLength: 4, typedCount: 2).slots == [true, true, false, false])
    }

    @Test func thePanelRisesFromTheBottomEdge() {
        let layout = OverlayLayout(width: 1920, height: 1080)
        #expect(layout.panel(PanelFixtures.channels, appearance: 0).panel.minY >= layout.screen.maxY)
        var previous = Double.infinity
        for step in 0...20 {
            let frame = layout.panel(PanelFixtures.channels, appearance: Double(step) / 20).panel
            #expect(frame.minY <= previous)
            previous = frame.minY
        }
        #expect(layout.panel(PanelFixtures.channels).panel.maxY == layout.safe.maxY)
        #expect(layout.panel(PanelFixtures.info).panel.height > layout.panel(PanelFixtures.audio).panel.height,
                "short lists make a low panel")
    }

    @Test func boundsOfTheNewLayers() {
        let layout = OverlayLayout(width: 1280, height: 720)
        // The locked screen covers everything, even before its card has appeared.
        for appearance in [0.0, 0.4, 1] {
            #expect(layout.bounds(of: .locked(PanelFixtures.locked, appearance: appearance)) == layout.screen)
        }
        #expect(layout.bounds(of: .panel(PanelFixtures.info, appearance: 0)) == nil)
        #expect(layout.bounds(of: .hint(PanelFixtures.hint, appearance: 0)) == nil)
        #expect(layout.bounds(of: .hint("", appearance: 1)) == nil)
        #expect(layout.bounds(of: .subtitles([], appearance: 1)) == nil)
        #expect(layout.bounds(of: .subtitles(["", ""], appearance: 1)) == nil)
        let layers: [OverlayLayer] = [.subtitles(PanelFixtures.subtitleLines, appearance: 1), .hint("Hi", appearance: 1),
                                      .panel(PanelFixtures.channels, appearance: 0.5), .logoBug(Fixtures.nova, appearance: 1)]
        let regions = layout.regions(of: layers)
        for layer in layers {
            let bounds = layout.bounds(of: layer)!
            #expect(bounds.contains(layout.frame(of: layer)) || layout.frame(of: layer).maxY > layout.screen.maxY)
            #expect(regions.contains { $0.contains(bounds) })
        }
        #expect(OverlayLayer.panel(PanelFixtures.info, appearance: 0.25).appearance == 0.25)
    }
}
