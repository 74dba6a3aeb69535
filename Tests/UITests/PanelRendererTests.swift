import Testing
import ZapperCore
import ZapperUI

/// The new layers drawn: the locked screen hides the picture, everything stays
/// inside what `dirty` promises and the safe area, the panel rises, the focus
/// ring shows, subtitles wrap.
@Suite struct PanelRendererTests {
    static func frame(width: Int, height: Int, colour: UInt32) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt32.self)
            for index in out.indices { out[index] = colour }
        }
        return pixels
    }

    static func blended(_ renderer: OverlayRenderer, onto colour: UInt32) -> [UInt8] {
        var pixels = frame(width: renderer.width, height: renderer.height, colour: colour)
        pixels.withUnsafeMutableBytes { renderer.blend(onto: $0, width: renderer.width, height: renderer.height, stride: renderer.width * 4) }
        return pixels
    }

    /// Blended onto two different bright pictures, the screen is the same to the
    /// last pixel (no picture shows through), and dark away from the card's text.
    @Test(arguments: [[1280, 720, 0], [1920, 1080, 0], [1280, 720, 30], [1920, 1080, 100]])
    func theLockedScreenLeavesNoVideoPixelVisible(case: [Int]) {
        let renderer = OverlayRenderer(width: `case`[0], height: `case`[1])
        let appearance = Double(`case`[2]) / 100
        renderer.render([.banner(Fixtures.banner, appearance: 1), .locked(PanelFixtures.locked, appearance: appearance)])
        #expect(renderer.dirty == renderer.layout.screen)
        let white = Self.blended(renderer, onto: 0xFFFF_FFFF)
        let magenta = Self.blended(renderer, onto: 0xFFFF_40E0)
        // Counted, not compared as arrays: a failing #expect would describe millions of bytes.
        let showingThrough = zip(white, magenta).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
        #expect(showingThrough == 0, "some picture shows through the locked screen")
        let card = renderer.layout.locked(pinLength: 4).card.insetBy(dx: -renderer.layout.units(40), dy: -renderer.layout.units(40))
        var bright = 0
        for y in 0..<renderer.height {
            for x in 0..<renderer.width {
                let offset = (y * renderer.width + x) * 4
                let brightest = max(white[offset], white[offset + 1], white[offset + 2])
                if brightest > 0x30, !card.contains(Rect(x: Double(x), y: Double(y), width: 1, height: 1)) { bright += 1 }
            }
        }
        #expect(bright == 0, "\(bright) bright pixels outside the card")
    }

    /// Drawn pixels stay inside `dirty`; all but faint shadow inside the title-safe area.
    @Test(arguments: [[1280, 720], [1920, 1080], [3840, 2160], [1024, 768]])
    func pixelsStayInsideDirtyAndSafeArea(size: [Int]) {
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        let long = String(repeating: "A very long subtitle line that has to wrap ", count: 4)
        let longInfo = PanelProgrammeInfo(channelName: String(repeating: "Long Channel ", count: 20),
                                          title: String(repeating: "Endless Title ", count: 20),
                                          subtitle: String(repeating: "Sub ", count: 80),
                                          description: String(repeating: "Words and more words ", count: 60),
                                          rating: String(repeating: "R", count: 200), timeRange: "10:00 PM – 11:30 PM", progress: 3)
        let longChoices = (0..<20).map { PanelChoice(label: String(repeating: "Label ", count: 30), detail: String(repeating: "detail ", count: 30), isCurrent: $0 == 3) }
        let layerSets: [[OverlayLayer]] = PanelFixtures.pages.map { [.panel($0.1, appearance: 1)] } + [
            [.panel(PanelContent(selectedTab: .info, page: .info(longInfo)), appearance: 1)],
            [.hint(String(repeating: "Swipe ", count: 40), appearance: 1)],
            [.panel(PanelContent(selectedTab: .audio, focusedItem: 17, page: .choices(longChoices)), appearance: 1)],
            [.panel(PanelContent(selectedTab: .channels, focusedItem: 30, page: .channels(PanelFixtures.longList())), appearance: 1)],
            [.subtitles([long, long, "short"], appearance: 1)],
            [.panel(PanelFixtures.channels, appearance: 0.4), .subtitles(PanelFixtures.subtitleLines, appearance: 0.5)],
        ]
        for layers in layerSets {
            renderer.render(layers)
            // Pixels the safe area's edge runs through count as inside.
            let stray = StrayPixels(renderer, safe: renderer.layout.safe.integral)
            #expect(stray.outsideDirty == 0, "\(layers.count) layers at \(size)")
            // A panel still rising may cross the safe area's bottom edge: only settled layers are held to it.
            if layers.allSatisfy({ $0.appearance == 1 }) { #expect(stray.outsideSafe == 0, "at \(size), first \(stray.firstOutsideSafe), layers \(layers.map { "\($0)".prefix(30) })") }
        }
    }

    @Test func thePanelRisesAndFadesIn() {
        func topRowWithInk(_ image: ARGBImage) -> Int? {
            (0..<image.height).first { y in (0..<image.width).contains { image.pixel(x: $0, y: y) >> 24 > 0x20 } }
        }
        let renderer = OverlayRenderer(width: 1280, height: 720)
        renderer.render([.panel(PanelFixtures.info, appearance: 0)])
        #expect(renderer.dirty == nil && renderer.image().pixels.allSatisfy { $0 == 0 })
        var previous = Int.max
        for appearance in [0.2, 0.5, 1] {
            renderer.render([.panel(PanelFixtures.info, appearance: appearance)])
            let top = topRowWithInk(renderer.image())!
            #expect(top < previous)
            previous = top
        }
        // Half risen, its lower part is still below the screen's edge: drawn down
        // to the last row, not cut off at where the settled panel ends.
        renderer.render([.panel(PanelFixtures.info, appearance: 0.5)])
        let half = renderer.image()
        #expect((0..<half.width).contains { half.pixel(x: $0, y: half.height - 1) >> 24 > 0xC0 })
        // Closing it clears it.
        let up = renderer.dirty!
        renderer.render([])
        #expect(renderer.damage == up && renderer.image().pixels.allSatisfy { $0 == 0 })
    }

    /// The ring: near-white and opaque on the focused tab's outline, absent when the focus moves to an item.
    @Test func theFocusRingFollowsTheFocus() {
        let renderer = OverlayRenderer(width: 1920, height: 1080)
        var content = PanelFixtures.picture
        let frame = renderer.layout.panel(content)
        let tabRing = frame.focusRing!
        let probe = (x: Int(tabRing.midX), y: Int(tabRing.minY + 2))
        func isRing(_ pixel: UInt32) -> Bool {
            pixel >> 24 > 0xF0 && (pixel >> 16) & 0xFF > 0xE0 && (pixel >> 8) & 0xFF > 0xE0 && pixel & 0xFF > 0xE0
        }
        renderer.render([.panel(content, appearance: 1)])
        #expect(isRing(renderer.image().pixel(x: probe.x, y: probe.y)))
        content.focusedItem = 0
        renderer.render([.panel(content, appearance: 1)])
        #expect(!isRing(renderer.image().pixel(x: probe.x, y: probe.y)))
        let rowRing = renderer.layout.panel(content).focusRing!
        #expect(isRing(renderer.image().pixel(x: Int(rowRing.midX), y: Int(rowRing.minY + 2))))
    }

    /// A line too long for the band wraps onto a second box; more than four lines are cut.
    @Test func subtitlesWrapLongLines() {
        func inkRows(_ lines: [String]) -> Int {
            let renderer = OverlayRenderer(width: 1280, height: 720)
            renderer.render([.subtitles(lines, appearance: 1)])
            let image = renderer.image()
            return (0..<image.height).filter { y in (0..<image.width).contains { image.pixel(x: $0, y: y) >> 24 > 0x80 } }.count
        }
        let one = inkRows(["Short line"])
        let two = inkRows(["Short line", "Another"])
        let wrapped = inkRows(["Short line", String(repeating: "and it goes on ", count: 8)])
        let many = inkRows((0..<9).map { "Line \($0)" })
        #expect(two > one * 3 / 2)
        #expect(inkRows(["Short line\nAnother"]) == two, "a line break inside a line starts a new box")
        #expect(wrapped > two * 4 / 3, "a long line takes more than one box")
        #expect(many <= one * 4 + 20 && many > one * 3, "at most four lines")
    }
}
