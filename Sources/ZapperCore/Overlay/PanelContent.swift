/// What the swipe-up panel, the locked card and subtitles show, as plain
/// values (no pixels, no fonts): the player fills them from the navigator,
/// the lineup, the guide and the media; the UI backend draws them.

/// The swipe-up panel: a strip of tabs along its bottom edge and, above it,
/// the selected tab's page.
public struct PanelContent: Sendable, Equatable {
    /// The page above the tab strip.
    public enum Page: Sendable, Equatable {
        /// Channel lines under their group headings, in lineup order.
        case channels([PanelChannelRow])
        /// What is on now on the playing channel.
        case info(PanelProgrammeInfo)
        /// Audio renditions, "Off" plus subtitle renditions, or the picture modes.
        case choices([PanelChoice])
        /// The code a phone's camera reads to open the box's remote-control page.
        case phone(PanelPhoneInvite)
    }

    public var tabs: [PanelRow]
    public var selectedTab: PanelRow
    /// nil: the focus is on the tab strip (on `selectedTab`). Otherwise the
    /// index of the focused item among the page's *focusable* items: channel
    /// lines (headings are skipped) or choices. The info page has none.
    public var focusedItem: Int?
    public var page: Page

    public init(tabs: [PanelRow] = PanelRow.standard, selectedTab: PanelRow, focusedItem: Int? = nil, page: Page) {
        self.tabs = tabs
        self.selectedTab = selectedTab
        self.focusedItem = focusedItem
        self.page = page
    }
}

extension PanelContent.Page {
    /// How many items the focus can land on.
    public var itemCount: Int {
        switch self {
        case .channels(let rows): rows.reduce(0) { $0 + ($1.channel == nil ? 0 : 1) }
        case .info, .phone: 0
        case .choices(let choices): choices.count
        }
    }

    /// How many rows the page lists (headings included); the info page lists none.
    public var rowCount: Int {
        switch self {
        case .channels(let rows): rows.count
        case .info, .phone: 0
        case .choices(let choices): choices.count
        }
    }

    /// The row that shows focusable item `item`; nil when there is no such item.
    public func row(ofItem item: Int) -> Int? {
        guard item >= 0 else { return nil }
        switch self {
        case .channels(let rows):
            var seen = -1
            for (index, row) in rows.enumerated() where row.channel != nil {
                seen += 1
                if seen == item { return index }
            }
            return nil
        case .info, .phone: return nil
        case .choices(let choices): return item < choices.count ? item : nil
        }
    }

    /// The row to keep in view when the focus is on the tabs: the playing
    /// channel or the current choice, else the first row.
    public var restingRow: Int {
        switch self {
        case .channels(let rows): rows.firstIndex { $0.channel?.isPlaying == true } ?? 0
        case .info, .phone: 0
        case .choices(let choices): choices.firstIndex { $0.isCurrent } ?? 0
        }
    }
}

extension PanelContent {
    /// The page row the focus is on; nil when the focus is on the tabs (or out of range).
    public var focusedRow: Int? { focusedItem.flatMap { page.row(ofItem: $0) } }
}

/// One row of the channels page.
public enum PanelChannelRow: Sendable, Equatable {
    /// A heading from the lineup's `group-title` ("News", "Films").
    case group(String)
    case channel(PanelChannelLine)

    public var channel: PanelChannelLine? {
        if case .channel(let line) = self { return line }
        return nil
    }
}

/// A channel in the list: logo, number and name, what is on now.
public struct PanelChannelLine: Sendable, Equatable {
    public var channel: ChannelIdentity
    /// The programme on now, as the line shows it ("20:00 The Long Way Home"); nil when the guide has none.
    public var now: String?
    /// The channel on screen.
    public var isPlaying: Bool

    public init(channel: ChannelIdentity, now: String? = nil, isPlaying: Bool = false) {
        self.channel = channel
        self.now = now
        self.isPlaying = isPlaying
    }
}

/// The Phone page: the link to the box's remote-control page, token and all (what the code
/// holds), and the address in words; or why a phone cannot reach it.
public struct PanelPhoneInvite: Sendable, Equatable {
    /// nil: there is no link a phone could open (`problem` says why).
    public var link: String?
    /// The address a person reads: the page's URL without its token.
    public var address: String
    public var problem: String?

    public init(link: String?, address: String, problem: String? = nil) {
        self.link = link
        self.address = address
        self.problem = problem
    }
}

/// The info page: the playing channel's programme now, texts already formatted.
public struct PanelProgrammeInfo: Sendable, Equatable {
    public var channelName: String
    /// nil when the guide knows nothing: the page says so.
    public var title: String?
    public var subtitle: String?
    public var description: String?
    /// "16", "PG-13", "FSK 12": drawn in a badge.
    public var rating: String?
    /// "20:00 – 21:45"
    public var timeRange: String?
    /// How far into the programme, 0…1 (clamped when drawn); nil hides the bar.
    public var progress: Double?

    public init(channelName: String, title: String? = nil, subtitle: String? = nil, description: String? = nil,
                rating: String? = nil, timeRange: String? = nil, progress: Double? = nil) {
        self.channelName = channelName
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.rating = rating
        self.timeRange = timeRange
        self.progress = progress
    }
}

/// One choice of the audio, subtitles or picture page.
public struct PanelChoice: Sendable, Equatable {
    /// "English", "Off", "Fit"
    public var label: String
    /// Second, dimmer text: "Audio description", "en", "Whole picture, bars if needed".
    public var detail: String?
    /// The choice in effect: drawn with a check mark.
    public var isCurrent: Bool

    public init(label: String, detail: String? = nil, isCurrent: Bool = false) {
        self.label = label
        self.detail = detail
        self.isCurrent = isCurrent
    }
}

/// Shown instead of the picture while a channel or programme is locked by parental control.
/// (The player fills it from `ParentalGate.Card`: the same reason, digits, message and warning flag.)
public struct LockedCard: Sendable, Equatable {
    public var channel: ChannelIdentity
    /// Why it is locked: "Rated 18", "Locked channel".
    public var reason: String
    /// How many digits the PIN has (the slots shown).
    public var pinLength: Int
    /// How many of them are typed (shown as dots, never as digits).
    public var typedCount: Int
    /// "Enter PIN to watch", "Wrong PIN – 3 tries left", "Too many tries – wait 60 s".
    public var message: String
    /// The message reports a wrong PIN or a lockout: drawn in the error colour.
    public var isWarning: Bool

    public init(channel: ChannelIdentity, reason: String, pinLength: Int = 4, typedCount: Int = 0,
                message: String = "Enter PIN to watch", isWarning: Bool = false) {
        self.channel = channel
        self.reason = reason
        self.pinLength = min(max(pinLength, 1), 12)
        self.typedCount = min(max(typedCount, 0), self.pinLength)
        self.message = message
        self.isWarning = isWarning
    }

    /// One flag per slot: typed (a dot) or still empty.
    public var slots: [Bool] { (0..<pinLength).map { $0 < typedCount } }
}
