import Foundation

/// The full-screen guide as a layer: the favourites first and then the lineup down, two hours
/// across; its keys move the focus by `GuideGridNavigator`'s rules, and around them:
///
/// - The guide key opens it (when the panel may open: not in standby, not while the schedule
///   says no), the panel giving way; it opens on the playing channel's row in the lineup part.
/// - Every move of the focus is told (its channel, the programme's start or the gap's half
///   hour, its title).
/// - Digits jump to a channel of the lineup part (one number while they come within the
///   tuner's entry time, at most its number of digits), else to the next number after it.
/// - OK tunes what is on now (or a gap now) and closes; OK on a programme to come sets a
///   reminder on it, or clears the one set; OK on one that is over does nothing.
/// - The favourite key adds or takes away the focused row's channel; volume and mute pass on
///   to the tuner; any other key is the guide's.
/// - It closes by Back (`key`), after `idleMilliseconds` without a key (`inactive`: a guide
///   left open on a lobby screen), when a choice tunes (`chosen`), or when another mode takes
///   the screen (`close`).
public struct GuideLayer: ScreenLayer, Equatable {
    /// Closes by itself after this long without a key.
    public static let idleMilliseconds = 120_000

    public enum Effect: Sendable, Equatable {
        /// The panel is to close (reason `key`) as the guide opens over it.
        case closePanel
        case opened(channel: Int)
        case closed(PlayerEvent.PanelCloseReason)
        case focus(channel: Int, start: Int, title: String)
        case favourite(channel: Int)
        /// A reminder is to be set on the programme, or the one set cleared.
        case reminder(channel: Int, Programme)
        case tune(channel: Int)
    }

    /// What the guide opens with.
    public struct Opening: Sendable, Equatable {
        /// The favourites, then the lineup once (a channel in several groups is one row).
        public var favourites: [Int]
        public var lineup: [Int]
        public var playing: Int
        public var visibleRows: Int
        /// How far back and ahead the guide reaches (nil: no guide).
        public var span: Range<Date>?

        public init(favourites: [Int], lineup: [Int], playing: Int, visibleRows: Int, span: Range<Date>?) {
            self.favourites = favourites
            self.lineup = lineup
            self.playing = playing
            self.visibleRows = visibleRows
            self.span = span
        }
    }

    public struct Context {
        public var mayOpen: Bool
        public var date: Date
        /// What the guide opens with, asked for only when it opens.
        public var opening: () -> Opening
        /// A channel's programmes overlapping the times, in order.
        public var programmes: (Int, Date, Date) -> [Programme]

        public init(mayOpen: Bool, date: Date, opening: @escaping () -> Opening, programmes: @escaping (Int, Date, Date) -> [Programme]) {
            self.mayOpen = mayOpen
            self.date = date
            self.opening = opening
            self.programmes = programmes
        }
    }

    private struct TypedNumber: Sendable, Equatable {
        var digits: String
        var at: Int
    }

    /// The focus (nil: closed).
    public private(set) var grid: GuideGridNavigator?
    /// The rows' channel numbers.
    public private(set) var rows: [Int] = []
    /// Where the lineup part of the rows begins (after the favourites).
    private var lineupStart = 0
    private var typed: TypedNumber?
    private var touched = 0
    private let entryTimeout: Int
    private let maxDigits: Int

    public init(entryTimeout: Int, maxDigits: Int) {
        self.entryTimeout = entryTimeout
        self.maxDigits = max(1, maxDigits)
    }

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        guard var grid else {
            guard action == .guide, context.mayOpen else { return nil }
            return open(context.opening(), now: now, date: context.date)
        }
        touched = now
        switch action {
        case .volumeUp, .volumeDown, .mute:
            return nil
        case .digit(let digit):
            jump(digit, now: now)
            return focus(in: context)
        case .favourite:
            return rows[safe: grid.row].map { [.favourite(channel: $0)] } ?? []
        default:
            break
        }
        let rows = self.rows
        let outcome = grid.handle(action) { row, from, to in rows[safe: row].map { context.programmes($0, from, to) } ?? [] }
        self.grid = grid
        switch outcome {
        case .unhandled, .none: return []
        case .moved: return focus(in: context)
        case .closed: return close(.key)
        case let .chosen(row, programme): return choose(row, programme, at: context.date)
        }
    }

    /// Opens on the playing channel's row in the lineup part (the panel closes first).
    public mutating func open(_ opening: Opening, now: Int, date: Date) -> [Effect] {
        rows = opening.favourites + opening.lineup
        lineupStart = opening.favourites.count
        grid = GuideGridNavigator(rowCount: rows.count, row: rows.lastIndex(of: opening.playing) ?? 0, now: date,
                                  visibleRows: opening.visibleRows, span: opening.span)
        touched = now
        typed = nil
        return [.closePanel, .opened(channel: rows[safe: grid?.row ?? 0] ?? opening.playing)]
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        guard grid != nil, now - touched >= Self.idleMilliseconds else { return [] }
        return close(.inactive)
    }

    /// Another mode takes the screen (a reminder's switch, standby): closed, if it was open.
    public mutating func close(_ reason: PlayerEvent.PanelCloseReason) -> [Effect] {
        guard grid != nil else { return [] }
        grid = nil
        return [.closed(reason)]
    }

    /// The focused row's channel number.
    public var focusedChannel: Int? { grid.flatMap { rows[safe: $0.row] } }

    private func focus(in context: Context) -> [Effect] {
        guard let grid, let number = rows[safe: grid.row] else { return [] }
        let programme = grid.focused(in: context.programmes(number, grid.anchor, grid.anchor + 1))
        let start = programme?.start ?? GuideGridNavigator.floor(grid.anchor)
        return [.focus(channel: number, start: Int(start.timeIntervalSince1970), title: programme?.title ?? "")]
    }

    private mutating func jump(_ digit: Int, now: Int) {
        let before = typed.map { now - $0.at <= entryTimeout ? $0.digits : "" } ?? ""
        let digits = String((before + String(digit)).suffix(maxDigits))
        typed = TypedNumber(digits: digits, at: now)
        let numbers = Array(rows.dropFirst(lineupStart))
        guard let number = Int(digits), let index = PanelNavigator.item(for: number, in: numbers) else { return }
        grid?.focus(row: lineupStart + index)
    }

    private mutating func choose(_ row: Int, _ programme: Programme?, at date: Date) -> [Effect] {
        guard let number = rows[safe: row] else { return [] }
        if let programme, programme.start > date { return [.reminder(channel: number, programme)] }
        guard programme.map({ $0.isOn(at: date) }) ?? true else { return [] }
        return close(.chosen) + [.tune(channel: number)]
    }
}
