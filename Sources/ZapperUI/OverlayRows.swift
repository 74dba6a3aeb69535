import ZapperCore

/// Rows of the overlay as sorted, separate spans: the rows its layers cover, or those drawn on
/// since its pages were last given back.
struct OverlayRows: Equatable {
    private(set) var spans: [Range<Int>] = []

    init() {}

    /// The rows `regions` cover (whole pixels, partly covered rows included), within `0..<height`.
    init(covering regions: [Rect], height: Int) {
        let limit = Double(max(0, height))
        for region in regions where region.height > 0 && region.minY.isFinite && region.maxY.isFinite {
            // Clamped before the conversion: a value beyond Int's range would trap.
            let top = Int(min(max(region.minY, 0), limit).rounded(.down))
            let bottom = Int(min(max(region.maxY, 0), limit).rounded(.up))
            if top < bottom { insert(top..<bottom) }
        }
    }

    var isEmpty: Bool { spans.isEmpty }

    mutating func insert(_ rows: Range<Int>) {
        var merged = rows
        var kept: [Range<Int>] = []
        for span in spans {
            if span.upperBound < merged.lowerBound || span.lowerBound > merged.upperBound {
                kept.append(span)
            } else {
                merged = min(span.lowerBound, merged.lowerBound)..<max(span.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        spans = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    mutating func formUnion(_ other: OverlayRows) {
        for span in other.spans { insert(span) }
    }

    /// Whether every row of `other` is one of these.
    func contains(_ other: OverlayRows) -> Bool {
        other.spans.allSatisfy { row in spans.contains { $0.lowerBound <= row.lowerBound && row.upperBound <= $0.upperBound } }
    }

    /// The spans of `0..<height` that are none of these rows.
    func gaps(height: Int) -> [Range<Int>] {
        var gaps: [Range<Int>] = []
        var row = 0
        for span in spans {
            if span.lowerBound > row { gaps.append(row..<min(span.lowerBound, height)) }
            row = max(row, span.upperBound)
        }
        if row < height { gaps.append(row..<height) }
        return gaps.filter { !$0.isEmpty }
    }
}
