import Testing
import ZapperCore
@testable import ZapperUI

/// The guide kept drawn between frames (`GuideCanvas`): whatever the keys did, the
/// picture after repainting only what changed is the picture a whole draw gives, pixel
/// for pixel; and a move of the focus along a row repaints that row and the details only.
@Suite struct GuideCanvasTests {
    typealias Cell = GuideGridContent.Cell
    static let names = ["Nova Cinema", "Harbour News 24", "Kids Planet", "Meridian Sport", "Arte Classics", "Channel Nine", "Weather Now",
                        "Coastline", "Studio Eight", "Market Day"]

    /// Rows `first`… of a ten-channel guide, the focus on channel `focus`'s programme `cell`.
    static func content(first: Int, focus: Int, cell focusCell: Int, logoOn: Int? = nil, reminderOn: Int? = nil) -> GuideGridContent {
        let rows = (first..<min(first + 7, names.count)).map { index -> GuideGridContent.Row in
            let identity = index == logoOn ? ChannelIdentity(number: index + 1, name: names[index], logoPNG: Fixtures.nova.logoPNG)
                : ChannelIdentity(number: index + 1, name: names[index])
            let split = 0.2 + 0.03 * Double(index)
            let cells = [Cell(title: "Morning \(index)", from: 0, to: split, onNow: true),
                         Cell(title: "Midday Matters", from: split, to: 0.7, reminder: index == reminderOn),
                         Cell(title: "Evening \(index)", from: 0.7, to: 1)]
            return GuideGridContent.Row(channel: identity, cells: cells.enumerated().map { position, cell in
                var cell = cell
                cell.focused = index == focus && position == focusCell
                return cell
            }, favourite: index % 3 == 0, playing: index == 2)
        }
        let details = GuideGridContent.Details(channel: "\(focus + 1)  \(names[focus])", title: "Programme \(focusCell) of \(names[focus])",
                                               subTitle: nil, when: "20:00 – 21:00", description: "About channel \(focus).", rating: nil,
                                               hint: reminderOn == focus ? "OK to clear the reminder" : "OK to watch")
        return GuideGridContent(details: details, columns: ["20:00", "20:30", "21:00", "21:30"], nowAt: 0.3, rows: rows,
                                position: "\(focus + 1) of \(names.count)", day: "Today")
    }

    /// Keys as a viewer presses them: along a row, down past the bottom (a scroll), up past
    /// the top, a reminder set, a logo arriving, the half hours moving on.
    static let steps: [GuideGridContent] = [
        content(first: 0, focus: 0, cell: 0), content(first: 0, focus: 0, cell: 1), content(first: 0, focus: 0, cell: 2),
        content(first: 0, focus: 1, cell: 2), content(first: 0, focus: 6, cell: 1), content(first: 1, focus: 7, cell: 1),
        content(first: 3, focus: 9, cell: 1), content(first: 2, focus: 2, cell: 1), content(first: 1, focus: 1, cell: 1),
        content(first: 1, focus: 1, cell: 1, reminderOn: 1), content(first: 1, focus: 1, cell: 1, logoOn: 4, reminderOn: 1),
        { var later = content(first: 1, focus: 1, cell: 0); later.columns = ["20:30", "21:00", "21:30", "22:00"]; return later }(),
    ]

    @Test(arguments: [[1280, 720], [1920, 1080]])
    func repaintingWhatChangedGivesTheWholeDrawsPicture(size: [Int]) {
        let kept = OverlayRenderer(width: size[0], height: size[1])
        for (index, step) in Self.steps.enumerated() {
            kept.render([.guide(step, appearance: 1)])
            let whole = OverlayRenderer(width: size[0], height: size[1])
            whole.render([.guide(step, appearance: 1)])
            let (a, b) = (kept.image(), whole.image())
            // Compared whole (a memcmp); the differing bytes are counted only for the message.
            #expect(a.pixels == b.pixels, "step \(index) at \(size[0])x\(size[1]): \(zip(a.pixels, b.pixels).count { $0 != $1 }) bytes differ from a whole draw")
        }
    }

    @Test func aMoveAlongARowRepaintsThatRowAndTheDetails() {
        let plan = GuideCanvas.plan(from: Self.content(first: 0, focus: 3, cell: 0), to: Self.content(first: 0, focus: 3, cell: 1))
        #expect(plan == GuideCanvas.Plan(rows: [3], details: true, header: false))
        let down = GuideCanvas.plan(from: Self.content(first: 0, focus: 3, cell: 1), to: Self.content(first: 0, focus: 4, cell: 1))
        #expect(down == GuideCanvas.Plan(rows: [3, 4], details: true, header: true))
        // A scroll by one row: five rows copied up, the two around the focus drawn.
        let scroll = GuideCanvas.plan(from: Self.content(first: 0, focus: 6, cell: 1), to: Self.content(first: 1, focus: 7, cell: 1))
        #expect(scroll?.moves.map(\.from) == [1, 2, 3, 4, 5] && scroll?.moves.map(\.to) == [0, 1, 2, 3, 4])
        #expect(scroll?.rows == [5, 6])
        // Up past the top: copied down, but not into the last row (where the "now" line ends).
        let up = GuideCanvas.plan(from: Self.content(first: 2, focus: 2, cell: 1), to: Self.content(first: 1, focus: 1, cell: 1))
        #expect(up?.moves.map(\.from) == [1, 2, 3, 4] && up?.moves.map(\.to) == [2, 3, 4, 5])
        #expect(up?.rows == [0, 1, 6])
        // Two rows that swapped places (a reordered list, not a scroll): drawn.
        let before = Self.content(first: 0, focus: 3, cell: 1)
        var swapped = before
        swapped.rows.swapAt(0, 1)
        #expect(GuideCanvas.plan(from: before, to: swapped) == GuideCanvas.Plan(rows: [0, 1], details: false, header: false))
        // Other half hours: everything.
        var later = Self.content(first: 0, focus: 3, cell: 1)
        later.columns = ["20:30", "21:00", "21:30", "22:00"]
        #expect(GuideCanvas.plan(from: Self.content(first: 0, focus: 3, cell: 1), to: later) == nil)
    }
}
