import Testing
import ZapperCore
@testable import ZapperUI

/// The overlay's pixels stay in memory only for the rows a layer shows: a banner or a card
/// gone while the logo bug stays gives its rows back at rest, and what is left looks the same.
@Suite struct OverlayMemoryTests {
    @Test func rowsNoLayerCoversAnyMoreAreGivenBackAtRest() throws {
        let renderer = OverlayRenderer(width: 1920, height: 1080)
        let bug: OverlayLayer = .logoBug(Fixtures.nova, appearance: 1)
        renderer.render([bug, .interstitial(Fixtures.card, appearance: 1)] + Fixtures.bannerLayers.dropFirst())
        let busy = try #require(renderer.residentPixelBytes)
        // Fading out: nothing goes back yet (the rows are still being drawn on).
        renderer.render([bug, .interstitial(Fixtures.card, appearance: 0.5)])
        #expect(try #require(renderer.residentPixelBytes) >= busy)
        renderer.render([bug])
        let rested = try #require(renderer.residentPixelBytes)
        let bugRows = try #require(renderer.dirty).height
        let stride = 1920 * 4
        // The logo bug's rows, and at most a page more at each end.
        #expect(rested <= Int(bugRows) * stride + 2 * 4096, "\(rested) bytes in memory for \(bugRows) rows; \(busy) before")
        #expect(busy > 4 * rested)
        // The same picture as a fresh overlay showing only the logo bug.
        let fresh = OverlayRenderer(width: 1920, height: 1080)
        fresh.render([bug])
        #expect(renderer.image().pixels == fresh.image().pixels)
        // And drawing there again works on the pages given back.
        renderer.render([bug, .interstitial(Fixtures.card, appearance: 1)])
        let again = OverlayRenderer(width: 1920, height: 1080)
        again.render([bug, .interstitial(Fixtures.card, appearance: 1)])
        #expect(renderer.image().pixels == again.image().pixels)
    }

    @Test func rowSpansMergeAndLeaveGaps() {
        var rows = OverlayRows(covering: [Rect(x: 0, y: 10.5, width: 5, height: 10), Rect(x: 9, y: 40, width: 1, height: 5)], height: 100)
        #expect(rows.spans == [10..<21, 40..<45])
        rows.insert(21..<40)
        #expect(rows.spans == [10..<45])
        #expect(rows.gaps(height: 100) == [0..<10, 45..<100])
        #expect(rows.contains(OverlayRows(covering: [Rect(x: 0, y: 12, width: 1, height: 30)], height: 100)))
        #expect(!rows.contains(OverlayRows(covering: [Rect(x: 0, y: 44, width: 1, height: 2)], height: 100)))
        #expect(OverlayRows(covering: [Rect(x: 0, y: -5, width: 1, height: 500)], height: 100).gaps(height: 100).isEmpty)
        #expect(OverlayRows().gaps(height: 3) == [0..<3])
        // Geometry that is no number, or beyond any screen, covers nothing or is clamped.
        #expect(OverlayRows(covering: [Rect(x: 0, y: .nan, width: 1, height: 5), Rect(x: 0, y: 1e300, width: 1, height: 1e300)],
                            height: 100).isEmpty)
        #expect(OverlayRows(covering: [Rect(x: 0, y: -1e300, width: 1, height: .infinity)], height: 100).isEmpty)
    }
}
