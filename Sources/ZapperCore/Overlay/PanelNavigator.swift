/// Focus navigation in the swipe-up panel, driven by remote actions and
/// `now` times in milliseconds. It knows only counts and indices; what the
/// items are and how they are drawn is the panel content's business.
///
/// Layout: the panel rises from the bottom of the screen. Its lowest line is
/// the tab strip, one tab per `PanelRow` in `tabs` (`PanelRow.standard`, and Phone after them
/// with the HTTP API; Channels first). Above the tabs, the selected tab's items are listed
/// top to bottom, index 0 at the top: channels, audio renditions, "Off" then
/// the subtitle renditions, fit/fill/zoom, "Open the guide". Info and Phone have no items (they only show).
///
/// - Opening puts focus on the tab strip, at the tab used last (Channels the
///   first time).
/// - On the tabs: Left/Right change tab (no wrap); Up (or OK) enters the items
///   at the tab's current choice (the playing channel, the chosen audio…);
///   Down or Back closes.
/// - In the items: Up/Down move (no wrap; Down from the bottom item returns to
///   the tabs); Left/Right change tab and stay in the items, at the new tab's
///   current choice (on a tab without items, focus goes to the tab strip);
///   OK activates the item; Back returns to the tabs.
/// - Activating a channel, or the Guide tab's one item, closes the panel (the flip's card takes the
///   screen); other choices keep it open and become the row's current choice.
/// - `panel` or `menu` while open closes it; 10 s without a panel action closes
///   it (`tick`). Other actions (channel ±, volume, digits…) are `unhandled`:
///   the caller treats them as if the panel were closed.
public struct PanelNavigator: Sendable, Equatable {
    public static let inactivityMs = 10_000

    public enum Outcome: Sendable, Equatable {
        /// The action was the panel's but changed nothing (Up at the top).
        case none
        /// Focus or tab changed: redraw.
        case moved
        case closed
        /// OK on `row`'s item `index`: tune, switch audio, subtitles or picture.
        case activate(PanelRow, Int)
        /// Not a panel action (or the panel is closed): the caller handles it.
        case unhandled
    }

    /// The tabs, left to right.
    public let tabs: [PanelRow]
    public private(set) var isOpen = false
    /// The selected tab.
    public private(set) var row: PanelRow = .channels
    /// The focused item of `row`, or `nil` when focus is on the tab strip.
    public private(set) var focusedItem: Int?
    private var itemCounts: [PanelRow: Int]
    private var selected: [PanelRow: Int]
    private var lastActivity = 0

    /// `itemCounts`: the items each row lists; `selected`: each row's current
    /// choice (the playing channel's index, the audio in use…).
    public init(tabs: [PanelRow] = PanelRow.standard, itemCounts: [PanelRow: Int] = [:], selected: [PanelRow: Int] = [:]) {
        self.tabs = tabs.isEmpty ? PanelRow.standard : tabs
        row = self.tabs[0]
        self.itemCounts = itemCounts
        self.selected = selected
    }

    public func itemCount(for row: PanelRow) -> Int { max(0, itemCounts[row] ?? 0) }

    /// The current choice of `row`, if it has one within its items.
    public func selected(for row: PanelRow) -> Int? {
        guard let index = selected[row], (0..<itemCount(for: row)).contains(index) else { return nil }
        return index
    }

    public mutating func open(now: Int) {
        isOpen = true
        focusedItem = nil
        lastActivity = now
    }

    public mutating func close() {
        isOpen = false
        focusedItem = nil
    }

    /// New items for `row` (another channel's audio renditions, a new lineup)
    /// and its current choice. A focus past the end is clamped; a row left with
    /// no items sends focus to the tab strip.
    public mutating func update(itemCount: Int, selected choice: Int?, for row: PanelRow) {
        itemCounts[row] = max(0, itemCount)
        selected[row] = choice
        guard row == self.row, let focused = focusedItem else { return }
        focusedItem = itemCount > 0 ? min(focused, itemCount - 1) : nil
    }

    /// Moves the focus to `item` of the current row (its items moved: a favourite added).
    /// `now`: a viewer's doing (a digit typed in the list), which keeps the panel open.
    public mutating func focus(item: Int, now: Int? = nil) {
        guard isOpen, focusedItem != nil, (0..<itemCount(for: row)).contains(item) else { return }
        focusedItem = item
        if let now { lastActivity = now }
    }

    public mutating func handle(_ action: Action, now: Int) -> Outcome {
        guard isOpen else { return .unhandled }
        let outcome: Outcome
        switch action {
        case .left: outcome = changeTab(by: -1)
        case .right: outcome = changeTab(by: +1)
        case .up: outcome = up()
        case .down: outcome = down()
        case .channelUp, .channelDown:
            // In a list, CH± (Page Up/Down) turns a page; elsewhere it flips channels as ever.
            guard let focused = focusedItem else { return .unhandled }
            let last = itemCount(for: row) - 1
            focusedItem = max(0, min(last, focused + (action == .channelUp ? -Self.pageSize : Self.pageSize)))
            outcome = .moved
        case .ok: outcome = ok()
        case .back: outcome = back()
        case .panel, .menu:
            close()
            outcome = .closed
        default:
            return .unhandled
        }
        lastActivity = now
        return outcome
    }

    /// The item a number typed in a channel list goes to: that channel in its own group (the
    /// last of its entries: favourites and recents come first), else the next number after it.
    public static func item(for typed: Int, in numbers: [Int]) -> Int? {
        if let exact = numbers.lastIndex(of: typed) { return exact }
        return numbers.indices.filter { numbers[$0] > typed }.min { numbers[$0] < numbers[$1] }
    }

    /// Items a page of a list holds (CH± turns one).
    public static let pageSize = 6

    /// Closes the panel once `inactivityMs` have passed without a panel action.
    public mutating func tick(now: Int) -> Outcome {
        guard isOpen, now - lastActivity >= Self.inactivityMs else { return .none }
        close()
        return .closed
    }

    private mutating func changeTab(by step: Int) -> Outcome {
        guard let index = tabs.firstIndex(of: row), tabs.indices.contains(index + step) else { return .none }
        row = tabs[index + step]
        if focusedItem != nil { focusedItem = entryItem() }
        return .moved
    }

    /// Where focus lands when it enters the current row's items.
    private func entryItem() -> Int? {
        guard itemCount(for: row) > 0 else { return nil }
        return selected(for: row) ?? 0
    }

    private mutating func up() -> Outcome {
        guard let focused = focusedItem else {
            guard let entry = entryItem() else { return .none }
            focusedItem = entry
            return .moved
        }
        guard focused > 0 else { return .none }
        focusedItem = focused - 1
        return .moved
    }

    private mutating func down() -> Outcome {
        guard let focused = focusedItem else {
            close()
            return .closed
        }
        focusedItem = focused + 1 < itemCount(for: row) ? focused + 1 : nil
        return .moved
    }

    private mutating func ok() -> Outcome {
        guard let focused = focusedItem else { return up() }
        selected[row] = focused
        if row == .channels || row == .guide { close() }
        return .activate(row, focused)
    }

    private mutating func back() -> Outcome {
        guard focusedItem != nil else {
            close()
            return .closed
        }
        focusedItem = nil
        return .moved
    }
}
