/// Where the swipe-up panel, the hint, the locked card and subtitles go
/// (design units on the 1920x1080 canvas, scaled, inside the safe area).
extension OverlayLayout {
    /// The panel's measures, in design units.
    public enum PanelMetrics {
        public static let padding = 28.0
        public static let cornerRadius = 26.0
        public static let tabWidth = 220.0
        public static let tabHeight = 64.0
        public static let tabGap = 14.0
        /// Space between the page and the divider, and between the divider and the tabs.
        public static let dividerGap = 18.0
        public static let rowHeight = 60.0
        public static let rowGap = 6.0
        /// The most rows a list page shows; longer lists scroll with the focus.
        public static let visibleRows = 6
        /// Choices are a column, not the panel's whole width.
        public static let choiceWidth = 820.0
        public static let infoHeight = 320.0
        /// How far the focus ring stands outside the focused tab or row.
        public static let ringOutset = 4.0
        public static let ringWidth = 4.0
    }

    public struct Panel: Sendable, Equatable {
        public var panel: Rect
        public var cornerRadius: Double
        /// One per tab, in order, left to right along the bottom of the panel.
        public var tabs: [Rect]
        public var divider: Rect
        /// The page above the divider.
        public var page: Rect
        /// The list rows shown, top to bottom (channels or choices); empty for the info page.
        public var rows: [Rect]
        /// The page row `rows[0]` shows (the list is scrolled by this much).
        public var firstRow: Int
        /// Small marks at the right end of the first and last rows when the
        /// list goes on above or below; nil when it does not.
        public var moreAbove: Rect?
        public var moreBelow: Rect?
        public var info: PanelInfo?
        public var phone: PanelPhone?
        /// The outline around the focused tab or row; nil when the focused row is not shown.
        public var focusRing: Rect?
        public var ringRadius: Double
    }

    public struct PanelInfo: Sendable, Equatable {
        /// Channel name, then the rating badge after it.
        public var header: Rect
        public var title: Rect
        public var subtitle: Rect
        /// Wrapped to at most `descriptionLines` lines, then ellipsized.
        public var description: Rect
        public var descriptionLines: Int
        /// The time range at the start of the progress row.
        public var time: Rect
        public var progressBar: Rect
    }

    public struct PanelPhone: Sendable, Equatable {
        /// "Use your phone as a remote", what to do, the address, the note; left of the code.
        public var title: Rect
        public var line: Rect
        public var address: Rect
        public var note: Rect
        /// The code's square (its light margin included), at the page's right end.
        public var code: Rect
    }

    /// The panel for `content`, settled at the bottom of the safe area; while
    /// it appears it rises from below the bottom edge of the screen.
    public func panel(_ content: PanelContent, appearance: Double = 1) -> Panel {
        typealias M = PanelMetrics
        let pageWidth = safe.width / scale - 2 * M.padding
        let rowCount = content.page.rowCount
        let shown: Int
        let pageHeight: Double
        switch content.page {
        case .info, .phone:
            shown = 0
            pageHeight = M.infoHeight
        case .channels, .choices:
            // An empty list still gets a row, for the line that says so.
            shown = min(max(rowCount, 1), M.visibleRows)
            pageHeight = Double(shown) * M.rowHeight + Double(shown - 1) * M.rowGap
        }
        let heightInUnits = M.padding + pageHeight + 2 * M.dividerGap + 2 + M.tabHeight + M.padding
        let restY = safe.maxY - units(heightInUnits)
        let y = restY + (screen.maxY - restY) * (1 - Self.eased(appearance))
        let panel = Rect(x: safe.minX, y: y, width: safe.width, height: units(heightInUnits))

        let page = inside(panel, M.padding, M.padding, pageWidth, pageHeight)
        let dividerY = M.padding + pageHeight + M.dividerGap
        let divider = inside(panel, M.padding, dividerY, pageWidth, 2)
        let tabsY = dividerY + 2 + M.dividerGap
        let tabs = content.tabs.indices.map {
            inside(panel, M.padding + Double($0) * (M.tabWidth + M.tabGap), tabsY, M.tabWidth, M.tabHeight)
        }

        // Scroll so the focused row (or, with the focus on the tabs, the playing
        // channel or the current choice) sits near the middle.
        let anchor = content.focusedRow ?? content.page.restingRow
        let firstRow = rowCount <= shown ? 0 : min(max(0, anchor - (shown - 1) / 2), rowCount - shown)
        let rowWidth: Double
        if case .choices = content.page { rowWidth = min(M.choiceWidth, pageWidth) } else { rowWidth = pageWidth }
        let rows = (0..<shown).map {
            inside(page, 0, Double($0) * (M.rowHeight + M.rowGap), rowWidth, M.rowHeight)
        }

        let mark = 28.0
        func moreMark(_ row: Rect?) -> Rect? {
            row.map { Rect(x: page.maxX - units(mark + 8), y: $0.midY - units(mark) / 2, width: units(mark), height: units(mark)) }
        }
        let moreAbove = firstRow > 0 ? moreMark(rows.first) : nil
        let moreBelow = firstRow + shown < rowCount ? moreMark(rows.last) : nil

        var info: PanelInfo?
        if case .info = content.page {
            let bar = (time: 260.0, gap: 24.0)
            info = PanelInfo(header: inside(page, 0, 0, pageWidth, 40),
                             title: inside(page, 0, 46, pageWidth, 62),
                             subtitle: inside(page, 0, 112, pageWidth, 40),
                             description: inside(page, 0, 162, pageWidth * 0.8, 108),
                             descriptionLines: 3,
                             time: inside(page, 0, 280, bar.time, 40),
                             progressBar: inside(page, bar.time + bar.gap, 296, pageWidth - bar.time - bar.gap, 8))
        }

        var phone: PanelPhone?
        if case .phone = content.page {
            let code = M.infoHeight - 10
            let text = pageWidth - code - 40
            phone = PanelPhone(title: inside(page, 0, 16, text, 62), line: inside(page, 0, 96, text, 40),
                               address: inside(page, 0, 150, text, 40), note: inside(page, 0, 214, text, 96),
                               code: inside(page, pageWidth - code, 5, code, code))
        }

        let ringOutset = units(M.ringOutset)
        var focused: Rect?
        if content.focusedItem != nil {
            // An item that does not exist gets no ring rather than a wrong one.
            if let row = content.focusedRow, rows.indices.contains(row - firstRow) { focused = rows[row - firstRow] }
        } else if let tab = content.tabs.firstIndex(of: content.selectedTab) {
            focused = tabs[tab]
        }
        return Panel(panel: panel, cornerRadius: units(M.cornerRadius), tabs: tabs, divider: divider, page: page,
                     rows: rows, firstRow: firstRow, moreAbove: moreAbove, moreBelow: moreBelow, info: info, phone: phone,
                     focusRing: focused?.insetBy(dx: -ringOutset, dy: -ringOutset),
                     ringRadius: units(14) + ringOutset)
    }

    // MARK: Hint

    /// The most room the hint takes: a pill sized to its text is centred in
    /// it, at the bottom centre of the safe area.
    public func hint(appearance: Double = 1) -> Rect {
        let size = (width: 1120.0, height: 64.0)
        return Rect(x: safe.midX - units(size.width) / 2, y: safe.maxY - units(size.height) + slide(appearance),
                    width: units(size.width), height: units(size.height))
    }

    // MARK: Locked card

    public struct Locked: Sendable, Equatable {
        /// The whole screen, painted opaque.
        public var backdrop: Rect
        public var card: Rect
        public var cornerRadius: Double
        public var logo: Rect
        /// "42  Nova Cinema", centred.
        public var title: Rect
        /// The lock glyph and why, centred.
        public var reason: Rect
        /// One per PIN digit.
        public var slots: [Rect]
        public var message: Rect
    }

    /// The card centred in the safe area over a dark screen.
    public func locked(pinLength: Int, appearance: Double = 1) -> Locked {
        let size = (width: 880.0, height: 500.0)
        let card = Rect(x: safe.midX - units(size.width) / 2, y: safe.midY - units(size.height) / 2 + slide(appearance),
                        width: units(size.width), height: units(size.height))
        let count = max(pinLength, 1)
        let gap = 20.0
        let room = size.width - 2 * 60
        let cellWidth = min(64.0, (room - Double(count - 1) * gap) / Double(count))
        let rowWidth = Double(count) * cellWidth + Double(count - 1) * gap
        let slots = (0..<count).map {
            inside(card, (size.width - rowWidth) / 2 + Double($0) * (cellWidth + gap), 296, cellWidth, 80)
        }
        return Locked(backdrop: screen, card: card, cornerRadius: units(30),
                      logo: inside(card, size.width / 2 - 60, 36, 120, 120),
                      title: inside(card, 40, 168, size.width - 80, 60),
                      reason: inside(card, 40, 232, size.width - 80, 44),
                      slots: slots,
                      message: inside(card, 40, 404, size.width - 80, 56))
    }

    // MARK: Subtitles

    public struct Subtitles: Sendable, Equatable {
        /// Where cue lines may be drawn: the last line sits on its bottom edge.
        public var band: Rect
        /// One drawn line's box height (text and its dark box).
        public var lineHeight: Double
        /// Lines beyond this many (after wrapping) are not drawn.
        public var maxLines: Int
        /// The font size, in pixels.
        public var fontSize: Double
    }

    /// The band at the bottom of the safe area, 80 % of its width, centred.
    public func subtitles() -> Subtitles {
        let lineHeight = 60.0, maxLines = 4
        let width = safe.width * 0.8
        let height = units(lineHeight * Double(maxLines))
        return Subtitles(band: Rect(x: safe.midX - width / 2, y: safe.maxY - height, width: width, height: height),
                         lineHeight: units(lineHeight), maxLines: maxLines, fontSize: units(42))
    }
}
