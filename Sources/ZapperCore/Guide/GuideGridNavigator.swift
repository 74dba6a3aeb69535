import Foundation

/// Where the full-screen guide's focus is, and what its keys do: channels down, time across
/// in half-hour columns. The focus stands at a time (`anchor`) on a row: the programme on at
/// that time is focused (or, where the guide knows nothing, the half hour around it). Left and
/// Right step programme by programme (a gap half an hour at a time); Up and Down keep the time,
/// so the focus lands on what is on then on the next channel; CH± turn a page of rows. The grid
/// reaches as far back and ahead as the guide holds (`span`). Programmes come from a closure,
/// asked only for the rows and times it needs.
public struct GuideGridNavigator: Sendable, Equatable {
    public static let column: TimeInterval = 1800
    /// The columns on screen (two hours).
    public static let columns = 4
    public static var width: TimeInterval { column * Double(columns) }

    public enum Outcome: Sendable, Equatable {
        case unhandled
        /// Nothing to do (at an edge).
        case none
        case moved
        case closed
        /// OK on `row`: its focused programme (nil: a gap) — the player tunes or sets a reminder.
        case chosen(row: Int, programme: Programme?)
    }

    public let rowCount: Int
    public let visibleRows: Int
    public private(set) var row: Int
    public private(set) var firstRow: Int
    /// The time the focus stands at.
    public private(set) var anchor: Date
    /// The left edge of the grid, on a half hour.
    public private(set) var start: Date
    /// How far back and ahead the guide reaches (never less than the two hours around now).
    public let span: Range<Date>

    /// Opens on `row` at `now`, the grid starting at the half hour before it.
    public init(rowCount: Int, row: Int, now: Date, visibleRows: Int, span: Range<Date>?) {
        self.rowCount = max(1, rowCount)
        self.visibleRows = max(1, visibleRows)
        self.row = min(max(0, row), self.rowCount - 1)
        let here = Self.floor(now)
        let lower = min(span?.lowerBound ?? here, here), upper = max(span?.upperBound ?? here, here + Self.width)
        self.span = lower..<upper
        anchor = now
        start = here
        firstRow = 0
        scrollToRow()
    }

    /// The half hour a time falls in starts at…
    public static func floor(_ time: Date) -> Date {
        let seconds = time.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / column).rounded(.down) * column)
    }

    public var end: Date { start + Self.width }
    public var visibleRange: Range<Int> { firstRow..<min(rowCount, firstRow + visibleRows) }

    /// The programme on at the anchor in `programmes` (one row's, in order).
    public func focused(in programmes: [Programme]) -> Programme? {
        programmes.first { $0.isOn(at: anchor) }
    }

    /// `programmes(row, from, to)`: a row's programmes overlapping the times, in order.
    public mutating func handle(_ action: Action, programmes: (Int, Date, Date) -> [Programme]) -> Outcome {
        switch action {
        case .up, .down:
            let next = row + (action == .up ? -1 : 1)
            guard (0..<rowCount).contains(next) else { return .none }
            row = next
            scrollToRow()
        case .channelUp, .channelDown:
            let next = min(max(0, row + (action == .channelUp ? -visibleRows : visibleRows)), rowCount - 1)
            guard next != row else { return .none }
            row = next
            firstRow = min(max(0, firstRow + (action == .channelUp ? -visibleRows : visibleRows)), max(0, rowCount - visibleRows))
            scrollToRow()
        case .right:
            let list = programmes(row, anchor, span.upperBound)
            let target: Date
            if let current = focused(in: list) {
                target = current.stop
            } else {
                // In a gap: to the next half hour, or the programme that starts before it.
                let half = Self.floor(anchor) + Self.column
                target = min(list.first { $0.start > anchor }?.start ?? half, half)
            }
            guard target < span.upperBound else { return .none }
            anchor = target
            scrollToAnchor()
        case .left:
            let list = programmes(row, span.lowerBound, anchor)
            let current = focused(in: list)
            let before = (current?.start ?? anchor) - 1
            guard before >= span.lowerBound else { return .none }
            if let previous = list.last(where: { $0.isOn(at: before) }) {
                anchor = max(previous.start, span.lowerBound)
            } else {
                anchor = max(Self.floor(before), list.last { $0.stop <= before }?.stop ?? span.lowerBound)
            }
            scrollToAnchor()
        case .ok:
            return .chosen(row: row, programme: focused(in: programmes(row, anchor, anchor + 1)))
        case .back, .guide:
            return .closed
        default:
            return .unhandled
        }
        return .moved
    }

    /// Moves the focus to `row` (digits typed), keeping the time.
    public mutating func focus(row target: Int) {
        row = min(max(0, target), rowCount - 1)
        scrollToRow()
    }

    private mutating func scrollToRow() {
        if row < firstRow { firstRow = row }
        if row >= firstRow + visibleRows { firstRow = row - visibleRows + 1 }
        firstRow = min(firstRow, max(0, rowCount - visibleRows))
    }

    /// Keeps the anchor on screen: the grid moves a column at a time.
    private mutating func scrollToAnchor() {
        while anchor >= end { start += Self.column }
        while anchor < start { start -= Self.column }
    }
}
