/// Where the full-screen guide's parts go (design units on the 1920x1080 canvas, scaled):
/// the focused programme's details across the top of the safe area, the half-hour labels
/// under them, then as many channel rows as fit; each row a channel column (number, logo,
/// name) and the two hours of programmes to its right.
extension OverlayLayout {
    public struct GuideGrid: Sendable, Equatable {
        public var details: Rect
        /// The details' parts: channel line, title, sub-title and times, description, progress bar.
        public var channelLine: Rect
        public var title: Rect
        public var subLine: Rect
        public var description: Rect
        public var progress: Rect
        /// What OK does, under the progress bar.
        public var hint: Rect
        /// The half-hour labels' band, over the programmes' columns.
        public var header: Rect
        /// The programmes' area across all rows: x is the grid's time axis.
        public var grid: Rect
        public var rows: [Rect]
        /// In a row: the channel column's width, the logo's and the gap between cells.
        public var channelWidth: Double
        public var logo: Size
        public var gap: Double
        public var cornerRadius: Double
    }

    public struct Size: Sendable, Equatable {
        public var width: Double
        public var height: Double
    }

    static let guideDetailsHeight = 236.0
    static let guideHeaderHeight = 48.0
    static let guideRowPitch = 96.0
    static let guideChannelWidth = 420.0

    public func guideGrid() -> GuideGrid {
        let details = Rect(x: safe.x, y: safe.y, width: safe.width, height: units(Self.guideDetailsHeight))
        let header = Rect(x: safe.x + units(Self.guideChannelWidth), y: details.maxY + units(8),
                          width: safe.width - units(Self.guideChannelWidth), height: units(Self.guideHeaderHeight))
        let top = header.maxY + units(8)
        let count = max(1, Int(((safe.maxY - top) / units(Self.guideRowPitch)).rounded(.down)))
        let rows = (0..<count).map { index in
            Rect(x: safe.x, y: top + Double(index) * units(Self.guideRowPitch), width: safe.width, height: units(Self.guideRowPitch - 8))
        }
        let grid = Rect(x: header.x, y: top, width: header.width, height: Double(count) * units(Self.guideRowPitch))
        return GuideGrid(details: details, channelLine: inside(details, 24, 16, 1200, 40), title: inside(details, 24, 58, 1500, 60),
                         subLine: inside(details, 24, 122, 1500, 40), description: inside(details, 24, 164, 1500, 66),
                         progress: inside(details, 1440, 24, 264, 10), hint: inside(details, 1300, 44, 404, 36), header: header, grid: grid, rows: rows,
                         channelWidth: units(Self.guideChannelWidth - 12),
                         logo: Size(width: units(100), height: units(64)), gap: units(6), cornerRadius: units(12))
    }

    /// Rows the guide shows at once on this screen.
    public var guideRows: Int { guideGrid().rows.count }
}
