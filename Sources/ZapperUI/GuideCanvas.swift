import CCairo
import ZapperCore

/// The full-screen guide kept drawn between frames, so that a key repaints only what it
/// changed: the details when the focused programme changes, a row whose programmes,
/// focus or logo changed, the day line when the position does. Rows that only moved (a
/// scroll by whole rows) are copied to their new place from what was drawn. Another set
/// of half hours, another "now", another number of rows, or the first draw paint it all.
/// At 1920x1080 a whole guide is about seventy text runs and forty rounded tiles; a move
/// of the focus along a row is the details and one or two rows.
final class GuideCanvas {
    let image: CairoImage
    private let layout: OverlayLayout
    private var shown: GuideGridContent?

    init?(layout: OverlayLayout) {
        guard let image = CairoImage(width: Int(layout.screen.width), height: Int(layout.screen.height), draw: { _ in }) else { return nil }
        self.image = image
        self.layout = layout
    }

    /// Brings the canvas to `content`, drawing with `painter(cr)` (a painter on the canvas's context).
    func update(_ content: GuideGridContent, painter: (_ cr: OpaquePointer) -> OverlayPainter,
                logo: (ChannelIdentity) -> CairoImage?) {
        guard content != shown, let cr = cairo_create(image.surface) else { return }
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(image.surface)
        }
        let painter = painter(cr)
        let old = shown
        shown = content
        let frame = layout.guideGrid()
        // More rows than this screen's layout has (content laid out for another size): drawn whole.
        guard let old, content.rows.count <= frame.rows.count, let plan = Self.plan(from: old, to: content) else {
            painter.guideRegion(layout.screen, content, logo: logo)
            return
        }
        if !plan.moves.isEmpty { move(plan.moves, rows: frame.rows) }
        var regions = plan.rows.map { frame.rows[$0] }
        if plan.details { regions.append(painter.guideDetailsBounds(frame)) }
        if plan.header { regions.append(painter.guideHeaderBand(frame)) }
        for region in regions { painter.guideRegion(region.integral, content, logo: logo) }
    }

    /// What a change from `old` to `new` repaints: rows to draw, rows to copy (from, to),
    /// the details and the header band; nil: everything.
    struct Plan: Equatable {
        var rows: [Int] = []
        var moves: [(from: Int, to: Int)] = []
        var details = false
        var header = false

        static func == (a: Plan, b: Plan) -> Bool {
            a.rows == b.rows && a.details == b.details && a.header == b.header
                && a.moves.map(\.from) == b.moves.map(\.from) && a.moves.map(\.to) == b.moves.map(\.to)
        }
    }

    static func plan(from old: GuideGridContent, to new: GuideGridContent) -> Plan? {
        guard old.columns == new.columns, old.nowAt == new.nowAt, old.rows.count == new.rows.count, old.day == new.day else { return nil }
        var plan = Plan(details: old.details != new.details, header: old.position != new.position)
        // The "now" line ends inside the last row's bottom pixels: a row copied to or from
        // there would carry its end, or lack it; those are drawn.
        let last = new.rows.count - 1
        for (index, row) in new.rows.enumerated() where row != old.rows[index] {
            if let from = old.rows.firstIndex(of: row), from != last, index != last {
                plan.moves.append((from, index))
            } else {
                plan.rows.append(index)
            }
        }
        // Rows that moved both ways (not a scroll): drawn.
        if Set(plan.moves.map { $0.to < $0.from }).count > 1 {
            plan.rows = (plan.rows + plan.moves.map(\.to)).sorted()
            plan.moves = []
        }
        return plan
    }

    /// Copies each moved row's pixels to its new place, in the canvas's own memory: rows
    /// moving up go top first, rows moving down bottom first, so each is read before it is
    /// overwritten (a scroll moves them all one way; `plan` draws any other change).
    private func move(_ moves: [(from: Int, to: Int)], rows: [Rect]) {
        cairo_surface_flush(image.surface)
        guard let data = cairo_image_surface_get_data(image.surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        let upward = moves[0].to < moves[0].from
        for move in moves.sorted(by: { upward ? $0.to < $1.to : $0.to > $1.to }) {
            let from = rows[move.from].integral, to = rows[move.to].integral
            let x = max(0, Int(from.x)), width = min(Int(from.width), image.width - x)
            let lines = min(Int(from.height), Int(to.height), image.height - Int(max(from.y, to.y)))
            guard width > 0, lines > 0, from.y >= 0, to.y >= 0 else { continue }
            for line in 0..<lines {
                memmove(data + (Int(to.y) + line) * stride + x * 4, data + (Int(from.y) + line) * stride + x * 4, width * 4)
            }
        }
        cairo_surface_mark_dirty(image.surface)
    }
}
