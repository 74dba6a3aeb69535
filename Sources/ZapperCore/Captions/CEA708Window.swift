/// One of a CEA-708 service's eight caption windows: a grid of rows and columns that text is
/// written into at a pen position, shown or hidden as a whole. Pop-on captions are written into
/// a hidden window and then shown; roll-up captions scroll a visible one up at each carriage
/// return; paint-on captions are written into a visible one.
public struct CEA708Window: Sendable, Equatable {
    /// A window is at most this big (a 16:9 screen's 15 rows of 42 columns).
    public static let maximumRows = 15
    public static let maximumColumns = 42

    public private(set) var rows: Int
    public private(set) var columns: Int
    public var visible: Bool
    /// Where the window is anchored, top to bottom (0…74 of a screen in relative terms): the
    /// screen's lines are ordered by it.
    public var anchorVertical: Int
    public var priority: Int
    private(set) var grid: [[Unicode.Scalar]]
    private(set) var row = 0
    private(set) var column = 0

    /// `rows` and `columns` as a DefineWindow gives them (count less one is sent), clamped.
    public init(rows: Int, columns: Int, visible: Bool, anchorVertical: Int, priority: Int) {
        self.rows = min(max(rows, 1), Self.maximumRows)
        self.columns = min(max(columns, 1), Self.maximumColumns)
        self.visible = visible
        self.anchorVertical = anchorVertical
        self.priority = priority
        grid = Array(repeating: Array(repeating: " ", count: self.columns), count: self.rows)
    }

    /// A DefineWindow for a window that exists: its size changes, its text stays where it fits.
    public mutating func resize(rows newRows: Int, columns newColumns: Int) {
        let rows = min(max(newRows, 1), Self.maximumRows), columns = min(max(newColumns, 1), Self.maximumColumns)
        guard rows != self.rows || columns != self.columns else { return }
        // Rows are kept from the bottom (a roll-up window keeps its newest lines).
        var kept = Array(grid.suffix(rows).map { line in Array(line.prefix(columns)) + Array(repeating: " ", count: max(0, columns - line.count)) })
        while kept.count < rows { kept.insert(Array(repeating: " ", count: columns), at: 0) }
        grid = kept
        self.rows = rows
        self.columns = columns
        row = min(row, rows - 1)
        column = min(column, columns - 1)
    }

    /// Writes a character at the pen, which moves right; at the last column it stays there.
    public mutating func write(_ scalar: Unicode.Scalar) {
        grid[row][column] = scalar
        if column + 1 < columns { column += 1 }
    }

    /// Carriage return: the next row's start; below the last row the text scrolls up a row.
    public mutating func carriageReturn() {
        column = 0
        if row + 1 < rows {
            row += 1
        } else {
            grid.removeFirst()
            grid.append(Array(repeating: " ", count: columns))
        }
    }

    /// Horizontal carriage return: the pen's row is erased and the pen goes to its start.
    public mutating func clearRow() {
        grid[row] = Array(repeating: " ", count: columns)
        column = 0
    }

    /// Backspace: the pen goes back a column and erases what is there.
    public mutating func backspace() {
        guard column > 0 else { return }
        column -= 1
        grid[row][column] = " "
    }

    /// ClearWindows and form feed: no text, the pen at the top left.
    public mutating func clear() {
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        row = 0
        column = 0
    }

    /// SetPenLocation (clamped to the window).
    public mutating func movePen(row: Int, column: Int) {
        self.row = min(max(row, 0), rows - 1)
        self.column = min(max(column, 0), columns - 1)
    }

    /// The rows that hold text, top to bottom, without trailing spaces.
    public var lines: [String] {
        grid.compactMap { line in
            var scalars = line[...]
            while let last = scalars.last, last == " " || last == "\u{A0}" { scalars = scalars.dropLast() }
            return scalars.isEmpty ? nil : String(String.UnicodeScalarView(scalars))
        }
    }
}
