/// The swipe-up panel as a layer. Its focus moves by `PanelNavigator`'s rules; this adds what
/// the keys mean around them:
///
/// - Panel, Menu or Up opens it, when it may open (not in standby, not while the schedule says
///   no, not while a channel number is being typed) — the row it opens on is told.
/// - Digits in the channel list move the focus to the number typed so far (digits within the
///   tuner's entry time of each other make one number, at most its number of digits; a pause
///   starts a new number): that channel in its own group, else the next number after it.
/// - OK on an item chooses it: a channel is tuned and the panel closes; the Guide tab's item
///   opens the guide (the panel closes); audio, subtitles and the Picture tab's items
///   (`PictureTabItem`) are set and the panel stays, its rows counted again.
/// - It closes by a key (Back or Down on the tabs, Panel, Menu), when a choice closes it
///   (`chosen`), after `PanelNavigator.inactivityMs` without a panel key (`inactive`), or when
///   another mode takes the screen (`close`).
/// - A key that is not the panel's (volume, CH± on the tabs) is not taken.
public struct PanelLayer: ScreenLayer, Equatable {
    public enum Effect: Sendable, Equatable {
        /// Opened on this row: its rows are to be counted (`PanelNavigator.update`).
        case opened(PanelRow)
        case closed(PlayerEvent.PanelCloseReason)
        case tune(channel: Int)
        case audio(index: Int)
        case subtitles(index: Int)
        case picture(PictureTabItem)
        case openGuide
        /// A choice was made: each row's items and current choice are to be counted again.
        case recount
    }

    public struct Context {
        /// Whether the panel may open now.
        public var mayOpen: Bool
        /// The channel list's numbers, in its order (`PanelOrder`).
        public var channels: [Int]

        public init(mayOpen: Bool, channels: [Int]) {
            self.mayOpen = mayOpen
            self.channels = channels
        }
    }

    /// Digits typed in the channel list so far, and when the last came.
    private struct TypedNumber: Sendable, Equatable {
        var digits: String
        var at: Int
    }

    public private(set) var navigator: PanelNavigator
    private var typed: TypedNumber?
    private let entryTimeout: Int
    private let maxDigits: Int

    /// `entryTimeout`, `maxDigits`: the tuner's, for a number typed in the channel list.
    public init(tabs: [PanelRow] = PanelRow.standard, entryTimeout: Int, maxDigits: Int) {
        navigator = PanelNavigator(tabs: tabs)
        self.entryTimeout = entryTimeout
        self.maxDigits = max(1, maxDigits)
    }

    public var isOpen: Bool { navigator.isOpen }
    public var row: PanelRow { navigator.row }
    public var focusedItem: Int? { navigator.focusedItem }
    public var tabs: [PanelRow] { navigator.tabs }
    /// The channel list has a channel in focus (OK held there adds a favourite).
    public var channelInFocus: Bool { navigator.row == .channels && navigator.focusedItem != nil }

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        guard navigator.isOpen else {
            guard action == .panel || action == .menu || action == .up, context.mayOpen else { return nil }
            navigator.open(now: now)
            return [.opened(navigator.row)]
        }
        if case .digit(let digit) = action, channelInFocus {
            jump(digit, now: now, in: context.channels)
            return []
        }
        switch navigator.handle(action, now: now) {
        case .unhandled: return nil
        case .none, .moved: return []
        case .closed: return [.closed(.key)]
        case .activate(let row, let index): return chosen(row, index, in: context) + (navigator.isOpen ? [] : [.closed(.chosen)])
        }
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        navigator.tick(now: now) == .closed ? [.closed(.inactive)] : []
    }

    /// Another mode takes the screen (the guide, standby): closed, if it was open.
    public mutating func close(_ reason: PlayerEvent.PanelCloseReason) -> [Effect] {
        guard navigator.isOpen else { return [] }
        navigator.close()
        return [.closed(reason)]
    }

    /// New items for `row` and its current choice (see `PanelNavigator.update`).
    public mutating func update(itemCount: Int, selected choice: Int?, for row: PanelRow) {
        navigator.update(itemCount: itemCount, selected: choice, for: row)
    }

    /// The focus to `item` of the current row (its items moved: a favourite added).
    public mutating func focus(item: Int) {
        navigator.focus(item: item)
    }

    private func chosen(_ row: PanelRow, _ index: Int, in context: Context) -> [Effect] {
        switch row {
        case .channels: context.channels.indices.contains(index) ? [.tune(channel: context.channels[index]), .recount] : []
        case .audio: [.audio(index: index), .recount]
        case .subtitles: [.subtitles(index: index), .recount]
        case .picture: (PictureTabItem.at(index).map { [.picture($0)] } ?? []) + [.recount]
        case .guide: [.openGuide]
        case .info, .phone: [.recount]
        }
    }

    private mutating func jump(_ digit: Int, now: Int, in channels: [Int]) {
        let before = typed.map { now - $0.at <= entryTimeout ? $0.digits : "" } ?? ""
        let digits = String((before + String(digit)).suffix(maxDigits))
        typed = TypedNumber(digits: digits, at: now)
        guard let number = Int(digits), let index = PanelNavigator.item(for: number, in: channels) else { return }
        navigator.focus(item: index, now: now)
    }
}
