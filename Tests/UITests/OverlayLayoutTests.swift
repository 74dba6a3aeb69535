import Testing
import ZapperCore

/// The overlay's geometry (pure, from ZapperCore): everything a viewer must
/// read stays inside the title-safe area, at any mode.
@Suite struct OverlayLayoutTests {
    static let modes = [(1280, 720), (1920, 1080), (3840, 2160), (1280, 800), (720, 576), (1024, 768)]

    @Test func safeAreaIsTitleSafe() {
        let hd = OverlayLayout(width: 1920, height: 1080)
        #expect(hd.safe == Rect(x: 96, y: 54, width: 1728, height: 972))
        #expect(hd.scale == 1)
        let uhd = OverlayLayout(width: 3840, height: 2160)
        #expect(uhd.safe == Rect(x: 192, y: 108, width: 3456, height: 1944))
        #expect(uhd.scale == 2)
        let action = OverlayLayout(width: 1920, height: 1080, safeArea: .action)
        #expect(abs(action.safe.minX - 67.2) < 1e-9 && abs(action.safe.minY - 37.8) < 1e-9)
        // A 16:10 mode scales by its height, so nothing is squeezed.
        #expect(OverlayLayout(width: 1280, height: 800).scale == 1280.0 / 1920)
    }

    /// Every rectangle something is drawn in, at full appearance.
    func drawnRects(_ layout: OverlayLayout, slots: Int = 3) -> [(String, Rect)] {
        let card = layout.card()
        let banner = layout.banner()
        let digits = layout.digits(slots: slots)
        var rects: [(String, Rect)] = [
            ("card", card.panel), ("card logo", card.logo), ("card header", card.header),
            ("card divider", card.divider), ("card status", card.status),
            ("banner", banner.panel), ("banner logo", banner.logo), ("banner header", banner.header),
            ("banner next", banner.next), ("banner row", banner.row), ("banner bar", banner.progressBar),
            ("bug", layout.logoBug()), ("digits", digits.panel),
        ]
        rects += card.rows.map { ("card row", $0) }
        rects += digits.cells.map { ("digit cell", $0) }
        return rects
    }

    @Test(arguments: modes.map { [$0.0, $0.1] })
    func everythingIsInsideTheSafeArea(mode: [Int]) {
        let layout = OverlayLayout(width: mode[0], height: mode[1])
        for (name, rect) in drawnRects(layout) {
            #expect(layout.safe.contains(rect), "\(name) \(rect) leaves the safe area \(layout.safe) at \(mode)")
            #expect(!rect.isEmpty, "\(name) is empty at \(mode)")
        }
        // Parts stay inside their panels.
        let card = layout.card()
        for part in [card.logo, card.header, card.divider, card.status] + card.rows {
            #expect(card.panel.contains(part))
        }
        let banner = layout.banner()
        for part in [banner.logo, banner.header, banner.next, banner.row, banner.progressBar] {
            #expect(banner.panel.contains(part))
        }
        let digits = layout.digits(slots: 4)
        #expect(digits.cells.allSatisfy { digits.panel.contains($0) })
        #expect(layout.safe.contains(digits.panel))
        let volume = layout.volume()
        #expect(layout.safe.contains(volume.panel), "volume \(volume.panel) at \(mode)")
        #expect([volume.glyph, volume.bar, volume.number].allSatisfy { volume.panel.contains($0) })
    }

    @Test(arguments: modes.map { [$0.0, $0.1] })
    func elementsDoNotOverlapEachOther(mode: [Int]) {
        let layout = OverlayLayout(width: mode[0], height: mode[1])
        // The bug, the digits and the banner can all be up at once.
        let bug = layout.logoBug(), digits = layout.digits(slots: 4).panel, banner = layout.banner().panel
        #expect(bug.intersection(digits) == nil)
        #expect(bug.intersection(banner) == nil)
        #expect(digits.intersection(banner) == nil)
        // The volume, top centre, is clear of the corners' bug and digits.
        let volume = layout.volume().panel
        #expect(volume.intersection(bug) == nil && volume.intersection(digits) == nil, "at \(mode)")
        // The card sits in the lower half, clear of the bug and the digits.
        let card = layout.card().panel
        #expect(card.minY > layout.screen.midY)
        #expect(card.intersection(bug) == nil && card.intersection(digits) == nil)
    }

    @Test func layoutScalesWithTheMode() {
        let hd = OverlayLayout(width: 1920, height: 1080).card().panel
        let uhd = OverlayLayout(width: 3840, height: 2160).card().panel
        let sd = OverlayLayout(width: 1280, height: 720).card().panel
        #expect(uhd == Rect(x: hd.x * 2, y: hd.y * 2, width: hd.width * 2, height: hd.height * 2))
        #expect(abs(sd.width - hd.width * 2 / 3) < 1e-9 && abs(sd.maxY - hd.maxY * 2 / 3) < 1e-9)
    }

    @Test func appearanceSlidesInFromBelowAndStaysOnScreen() {
        let layout = OverlayLayout(width: 1920, height: 1080)
        #expect(OverlayLayout.eased(0) == 0 && OverlayLayout.eased(1) == 1)
        #expect(OverlayLayout.eased(-3) == 0 && OverlayLayout.eased(7) == 1 && OverlayLayout.eased(.nan) == 0)
        var previousY = Double.infinity
        for step in 0...20 {
            let appearance = Double(step) / 20
            #expect(OverlayLayout.eased(appearance) >= OverlayLayout.eased(max(0, appearance - 0.05)))
            let card = layout.card(appearance: appearance).panel
            #expect(card.minY <= previousY, "the card rises as it appears")
            previousY = card.minY
            #expect(layout.safe.contains(card), "the sliding card stays in the safe area")
            #expect(layout.screen.contains(layout.banner(appearance: appearance).panel))
        }
        #expect(layout.card(appearance: 0).panel.minY - layout.card().panel.minY == OverlayLayout.slideDistance)
    }

    @Test func boundsCoverShadowsAndVanishWhenHidden() {
        let layout = OverlayLayout(width: 1280, height: 720)
        let channel = ChannelIdentity(number: 1, name: "One")
        let card = OverlayLayer.interstitial(InterstitialCard(channel: channel), appearance: 1)
        let bounds = layout.bounds(of: card)!
        #expect(bounds.contains(layout.frame(of: card).insetBy(dx: -layout.units(OverlayLayout.shadowReach),
                                                                dy: -layout.units(OverlayLayout.shadowReach))))
        #expect(bounds == bounds.integral)
        #expect(layout.bounds(of: .interstitial(InterstitialCard(channel: channel), appearance: 0)) == nil)
        #expect(layout.bounds(of: []) == nil)
        // The bug in a corner: its bounds are clipped to the screen.
        let all = layout.bounds(of: [card, .logoBug(channel, appearance: 1), .digits(DigitEntry(digits: [1]), appearance: 1)])!
        #expect(layout.screen.contains(all))
        #expect(all.contains(bounds))
    }

    @Test func regionsAreDisjointAndCoverEveryLayer() {
        let layout = OverlayLayout(width: 1920, height: 1080)
        let channel = ChannelIdentity(number: 1, name: "One")
        let bug = OverlayLayer.logoBug(channel, appearance: 1)
        let digits = OverlayLayer.digits(DigitEntry(digits: [1]), appearance: 1)
        let banner = OverlayLayer.banner(ChannelBanner(channel: channel), appearance: 1)
        let card = OverlayLayer.interstitial(InterstitialCard(channel: channel), appearance: 1)
        // Corners and bottom apart: three small regions, not one screen-sized box.
        let apart = layout.regions(of: [bug, digits, banner])
        #expect(apart.count == 3)
        let area = apart.reduce(0) { $0 + $1.width * $1.height }
        #expect(area < layout.screen.width * layout.screen.height * 0.35)
        // The card's shadow meets the banner's: merged, so nothing is blended twice.
        for layers in [[bug, digits, banner], [bug, digits, banner, card], [card, banner, bug], [bug, bug]] {
            let regions = layout.regions(of: layers)
            for (i, a) in regions.enumerated() {
                for b in regions[(i + 1)...] { #expect(a.intersection(b) == nil) }
            }
            for layer in layers {
                #expect(regions.contains { $0.contains(layout.bounds(of: layer)!) })
            }
        }
        #expect(layout.regions(of: [.digits(DigitEntry(digits: []), appearance: 0)]).isEmpty)
    }

    @Test func digitCellsAndRetryWording() {
        #expect(DigitEntry(digits: [4, 2], slots: 3).cells == ["4", "2", nil])
        #expect(DigitEntry(digits: [1, 2, 3, 4], slots: 3).cells == ["1", "2", "3", "4"])
        #expect(DigitEntry(digits: [], slots: 0).cells == [nil])
        #expect(InterstitialCard.retryLine(seconds: 4) == "Retrying in 4 s")
        #expect(InterstitialCard.retryLine(seconds: 0) == "Retrying now")
        #expect(InterstitialCard.retryLine(seconds: nil) == nil)
    }

    @Test func initialsAndTheirColour() {
        #expect(ChannelMonogram.initials(for: "BBC One") == "BO")
        #expect(ChannelMonogram.initials(for: "Demo 1") == "D1")
        #expect(ChannelMonogram.initials(for: "ZDF") == "ZDF")
        #expect(ChannelMonogram.initials(for: "euronews") == "E")
        #expect(ChannelMonogram.initials(for: "  Harbour-News 24") == "HN")
        #expect(ChannelMonogram.initials(for: "") == "#")
        let nova = ChannelMonogram.colour(for: "Nova Cinema")
        #expect(nova == ChannelMonogram.colour(for: "Nova Cinema"))
        #expect(nova != ChannelMonogram.colour(for: "Harbour News 24"))
        // Dark enough for white initials, never grey.
        for name in ["A", "Nova Cinema", "Harbour News 24", "Demo 1", "Demo 2", "ZDF"] {
            let c = ChannelMonogram.colour(for: name)
            let luminance = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
            #expect(luminance < 0.6, "\(name)")
            #expect(max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) > 0.3, "\(name)")
        }
    }
}
