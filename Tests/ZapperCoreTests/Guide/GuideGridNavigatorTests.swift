import Foundation
import Testing
import ZapperCore

/// The full-screen guide's focus: programme by programme across, the time kept going down,
/// gaps half an hour at a time, pages of rows, and no further than the guide reaches.
@Suite struct GuideGridNavigatorTests {
    /// 20:00 on 2026-11-24 (UTC).
    static let eight = Date(timeIntervalSince1970: 1_795_550_400)

    static func programme(_ row: Int, _ from: Double, _ to: Double, _ title: String) -> Programme {
        Programme(channelID: "ch\(row)", start: eight + from * 60, stop: eight + to * 60, title: title)
    }

    /// Row 0: 19:00–20:10 A, 20:10–21:00 B, a gap to 21:40, 21:40–23:00 C. Row 1: 19:30–22:00 D. Row 2: nothing.
    static let rows: [[Programme]] = [
        [programme(0, -60, 10, "A"), programme(0, 10, 60, "B"), programme(0, 100, 180, "C")],
        [programme(1, -30, 120, "D")],
        [],
    ]

    static func lookup(_ row: Int, _ from: Date, _ to: Date) -> [Programme] {
        (rows.indices.contains(row) ? rows[row] : []).filter { $0.stop > from && $0.start < to }
    }

    func focusedTitle(_ grid: GuideGridNavigator) -> String? {
        grid.focused(in: Self.lookup(grid.row, grid.anchor, grid.anchor + 1))?.title
    }

    @Test func acrossByProgrammeAndGapsByHalfHours() {
        var grid = GuideGridNavigator(rowCount: 3, row: 0, now: Self.eight + 5 * 60, visibleRows: 2,
                                      span: (Self.eight - 3600)..<(Self.eight + 3 * 3600))
        var outcome: GuideGridNavigator.Outcome
        #expect(grid.start == Self.eight && focusedTitle(grid) == "A")
        outcome = grid.handle(.right, programmes: Self.lookup)
        #expect(outcome == .moved)
        #expect(focusedTitle(grid) == "B" && grid.anchor == Self.eight + 600)
        _ = grid.handle(.right, programmes: Self.lookup)
        #expect(focusedTitle(grid) == nil && grid.anchor == Self.eight + 3600, "the gap after B")
        _ = grid.handle(.right, programmes: Self.lookup)
        #expect(grid.anchor == Self.eight + 5400, "a half hour on in the gap")
        _ = grid.handle(.right, programmes: Self.lookup)
        #expect(focusedTitle(grid) == "C" && grid.anchor == Self.eight + 6000, "C starts before the next half hour")
        #expect(grid.start == Self.eight, "21:40 is still within the two hours from 20:00")
        outcome = grid.handle(.right, programmes: Self.lookup)
        #expect(outcome == .none && focusedTitle(grid) == "C", "the guide holds nothing after C (23:00)")
        // Back: the gap's half hours, B, A, and no further than the guide reaches.
        var steps: [String] = []
        while case .moved = grid.handle(.left, programmes: Self.lookup) { steps.append(focusedTitle(grid) ?? "-") }
        #expect(steps == ["-", "-", "B", "A"], "\(steps)")
        #expect(grid.anchor == Self.eight - 3600 && grid.start == Self.eight - 3600)
    }

    @Test func downKeepsTheTimeAndPagesTurnByTheRowsShown() {
        var grid = GuideGridNavigator(rowCount: 3, row: 0, now: Self.eight + 5 * 60, visibleRows: 2, span: nil)
        var outcome: GuideGridNavigator.Outcome
        _ = grid.handle(.right, programmes: Self.lookup)
        #expect(focusedTitle(grid) == "B")
        _ = grid.handle(.down, programmes: Self.lookup)
        #expect(grid.row == 1 && focusedTitle(grid) == "D", "what is on at 20:10 on the next channel")
        _ = grid.handle(.down, programmes: Self.lookup)
        #expect(grid.row == 2 && grid.visibleRange == 1..<3 && focusedTitle(grid) == nil)
        outcome = grid.handle(.down, programmes: Self.lookup)
        #expect(outcome == .none, "no row after the last")
        outcome = grid.handle(.channelUp, programmes: Self.lookup)
        #expect(outcome == .moved && grid.row == 0 && grid.visibleRange == 0..<2)
        outcome = grid.handle(.channelDown, programmes: Self.lookup)
        #expect(outcome == .moved && grid.row == 2)
        outcome = grid.handle(.ok, programmes: Self.lookup)
        #expect(outcome == .chosen(row: 2, programme: nil))
        outcome = grid.handle(.back, programmes: Self.lookup)
        #expect(outcome == .closed)
        outcome = grid.handle(.volumeUp, programmes: Self.lookup)
        #expect(outcome == .unhandled)
        grid.focus(row: 0)
        #expect(grid.row == 0 && grid.visibleRange == 0..<2)
    }

    /// With no guide at all the grid still spans the two hours from now's half hour, a gap each half hour.
    @Test func withoutAGuideTheGridIsTwoHoursOfGaps() {
        var grid = GuideGridNavigator(rowCount: 10_000, row: 9_999, now: Self.eight + 100, visibleRows: 7, span: nil)
        var outcome: GuideGridNavigator.Outcome
        #expect(grid.visibleRange == 9_993..<10_000)
        var moves = 0
        while case .moved = grid.handle(.right, programmes: { _, _, _ in [] }) { moves += 1 }
        #expect(moves == 3, "20:30, 21:00, 21:30")
        outcome = grid.handle(.left, programmes: { _, _, _ in [] })
        #expect(outcome == .moved && grid.anchor == Self.eight + 3600)
    }
}
