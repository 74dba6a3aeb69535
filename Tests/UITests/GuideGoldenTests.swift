import Testing
import ZapperCore
import ZapperUI

/// The full-screen guide at 720p and 1080p against reviewed goldens (`ZAPPER_RECORD_GOLDENS=1`
/// records them): details on top, the half hours, seven rows with logos or initials, a focused
/// programme, one on now, a gap, a reminder and the "now" line.
@Suite struct GuideGoldenTests {
    typealias Cell = GuideGridContent.Cell

    static let content: GuideGridContent = {
        let names = ["Nova Cinema", "Harbour News 24", "Kids Planet", "Meridian Sport", "Arte Classics", "Channel Nine Extra Long Name Here", "Weather Now"]
        let rows = names.enumerated().map { index, name -> GuideGridContent.Row in
            let identity = index == 0 ? Fixtures.nova : ChannelIdentity(number: [42, 7, 12, 30, 55, 9, 88][index], name: name)
            var cells: [Cell] = [
                Cell(title: "Evening Programme \(index + 1)", from: 0, to: 0.125 + 0.05 * Double(index), onNow: true),
                Cell(title: "The Long Way Home", from: 0.125 + 0.05 * Double(index), to: 0.6, focused: index == 2),
                Cell(title: "Late Night News with Maria Okafor", from: 0.6, to: 1, reminder: index == 4),
            ]
            if index == 5 { cells = [Cell(title: "No information", from: 0, to: 0.25, isGap: true), Cell(title: "Film", from: 0.25, to: 1)] }
            return GuideGridContent.Row(channel: identity, cells: cells, favourite: index < 2, playing: index == 1)
        }
        let details = GuideGridContent.Details(channel: "12  Kids Planet", title: "The Long Way Home", subTitle: "Episode 4: The Harbour",
                                               when: "Today 20:15 – 21:30", description: "Two brothers walk the coast from Aberdeen to Dover "
                                                   + "to find the boat their grandfather built, and meet the people who kept it.",
                                               rating: "12", hint: "OK to set a reminder")
        return GuideGridContent(details: details, columns: ["20:00", "20:30", "21:00", "21:30"], nowAt: 0.2, rows: rows,
                                position: "152 of 10000", day: "Today")
    }()

    @Test(arguments: PanelGoldenTests.sizes)
    func guideGrid(size: [Int]) throws {
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        renderer.render([.guide(Self.content, appearance: 1)])
        #expect(renderer.dirty == OverlayLayout(width: size[0], height: size[1]).screen, "the guide covers the screen")
        try Goldens.check(renderer.image(), named: "guide-\(size[0])x\(size[1])")
    }

    @Test func sevenRowsFitAt720pAnd1080p() {
        #expect(OverlayLayout(width: 1920, height: 1080).guideRows == 7)
        #expect(OverlayLayout(width: 1280, height: 720).guideRows == 7)
    }
}
