import Testing
import ZapperCore
import ZapperUI

/// The panel's pages, the hint, the locked card and subtitles at 720p and
/// 1080p against reviewed goldens (`ZAPPER_RECORD_GOLDENS=1` records them).
@Suite struct PanelGoldenTests {
    static let sizes = Fixtures.sizes.map { [$0.0, $0.1] }

    func picture(_ layers: [OverlayLayer], size: [Int]) -> ARGBImage {
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        renderer.render(layers)
        return renderer.image()
    }

    func name(_ base: String, _ size: [Int]) -> String { "\(base)-\(size[0])x\(size[1])" }

    @Test(arguments: sizes)
    func channelsPageWithGroupsAndAFocusedLine(size: [Int]) throws {
        try Goldens.check(picture([.panel(PanelFixtures.channels, appearance: 1)], size: size),
                          named: name("panel-channels", size))
    }

    @Test(arguments: sizes)
    func infoPage(size: [Int]) throws {
        try Goldens.check(picture([.panel(PanelFixtures.info, appearance: 1)], size: size), named: name("panel-info", size))
    }

    @Test(arguments: sizes)
    func audioPage(size: [Int]) throws {
        try Goldens.check(picture([.panel(PanelFixtures.audio, appearance: 1)], size: size), named: name("panel-audio", size))
    }

    @Test(arguments: sizes)
    func subtitlesPage(size: [Int]) throws {
        try Goldens.check(picture([.panel(PanelFixtures.subtitles, appearance: 1)], size: size),
                          named: name("panel-subtitles", size))
    }

    /// The picture page with the focus on the tab strip (its ring on "Picture").
    @Test(arguments: sizes)
    func picturePageFocusOnTabs(size: [Int]) throws {
        try Goldens.check(picture([.panel(PanelFixtures.picture, appearance: 1)], size: size),
                          named: name("panel-picture", size))
    }

    @Test(arguments: sizes)
    func hint(size: [Int]) throws {
        try Goldens.check(picture([.hint(PanelFixtures.hint, appearance: 1)], size: size), named: name("hint", size))
    }

    /// The offline badge beside the logo bug (top left) it must never meet.
    @Test(arguments: sizes)
    func offlineBadgeBesideTheLogoBug(size: [Int]) throws {
        let layers: [OverlayLayer] = [.logoBug(Fixtures.nova, appearance: 1), .offline(appearance: 1)]
        try Goldens.check(picture(layers, size: size), named: name("offline", size))
    }

    @Test(arguments: sizes)
    func lockedCardTwoOfFourDigitsWrongPIN(size: [Int]) throws {
        try Goldens.check(picture([.locked(PanelFixtures.locked, appearance: 1)], size: size), named: name("locked", size))
    }

    @Test(arguments: sizes)
    func subtitlesTwoLines(size: [Int]) throws {
        try Goldens.check(picture([.subtitles(PanelFixtures.subtitleLines, appearance: 1)], size: size),
                          named: name("subtitles", size))
    }
}
