/// What the full-screen guide shows this frame, as plain values: the focused programme's
/// details at the top, the half-hour labels, and the visible rows only (a 10,000-channel
/// lineup lays out seven rows, not ten thousand). Times come formatted by the caller.
public struct GuideGridContent: Sendable, Equatable {
    /// One programme (or a gap the guide knows nothing about) in a row.
    public struct Cell: Sendable, Equatable {
        public var title: String
        /// Where it starts and ends across the grid's two hours, 0…1 (clipped to them).
        public var from: Double
        public var to: Double
        public var focused: Bool
        /// On now (drawn a little brighter).
        public var onNow: Bool
        /// A reminder is set on it.
        public var reminder: Bool
        /// Not a programme: a stretch the guide has nothing for.
        public var isGap: Bool

        public init(title: String, from: Double, to: Double, focused: Bool = false, onNow: Bool = false,
                    reminder: Bool = false, isGap: Bool = false) {
            self.title = title
            self.from = from
            self.to = to
            self.focused = focused
            self.onNow = onNow
            self.reminder = reminder
            self.isGap = isGap
        }
    }

    public struct Row: Sendable, Equatable {
        public var channel: ChannelIdentity
        public var cells: [Cell]
        public var favourite: Bool
        /// The channel on screen now.
        public var playing: Bool

        public init(channel: ChannelIdentity, cells: [Cell], favourite: Bool = false, playing: Bool = false) {
            self.channel = channel
            self.cells = cells
            self.favourite = favourite
            self.playing = playing
        }
    }

    /// The focused programme, whole.
    public struct Details: Sendable, Equatable {
        /// "5  Magenta Arena"
        public var channel: String
        public var title: String
        public var subTitle: String?
        /// "Today 20:00 – 21:30", "Wed 25 Nov 06:00 – 07:00"
        public var when: String
        public var description: String?
        public var rating: String?
        /// How far into it we are (on now only), 0…1.
        public var progress: Double?
        /// "Reminder set", "OK to watch", "OK to set a reminder".
        public var hint: String?

        public init(channel: String, title: String, subTitle: String? = nil, when: String, description: String? = nil,
                    rating: String? = nil, progress: Double? = nil, hint: String? = nil) {
            self.channel = channel
            self.title = title
            self.subTitle = subTitle
            self.when = when
            self.description = description
            self.rating = rating
            self.progress = progress
            self.hint = hint
        }
    }

    public var details: Details
    /// The four half-hour labels ("20:00", …), left to right.
    public var columns: [String]
    /// Where "now" is across the grid, 0…1; nil when now is not in its two hours.
    public var nowAt: Double?
    public var rows: [Row]
    /// "Channel 152 of 10,000" (only for long lineups), and the day shown ("Today", "Wed 25 Nov").
    public var position: String?
    public var day: String

    public init(details: Details, columns: [String], nowAt: Double?, rows: [Row], position: String? = nil, day: String) {
        self.details = details
        self.columns = columns
        self.nowAt = nowAt
        self.rows = rows
        self.position = position
        self.day = day
    }
}
