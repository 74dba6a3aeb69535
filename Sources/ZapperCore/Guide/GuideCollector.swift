import Foundation

/// Gathers programmes as a guide reader finds them, keeping memory bounded:
/// programmes of channels the lineup does not have and programmes outside the
/// window are dropped as they arrive, and every few thousand programmes the
/// pending ones are tidied and trimmed again.
///
/// A programme without a stop time ends when the channel's next programme
/// starts. Programmes dropped for the window still count as "the next
/// programme" (only their start is remembered), so a missing stop is never
/// stretched over a programme that was dropped. A channel's last programme
/// with no stop and nothing after it is dropped: its end is unknown.
public struct GuideCollector: Sendable {
    public let source: String
    public let window: GuideWindow?
    /// Only these channels are kept (the lineup's `tvg-id`s, and the names of its channels);
    /// `nil` keeps all.
    public let wanted: GuideWanted?
    /// Ids of `<channel>`s kept for their display name (XMLTV lists channels before programmes).
    var namedIDs: Set<String> = []
    public private(set) var problems: [InputProblem] = []
    public private(set) var counts = Counts()

    public struct Counts: Sendable, Equatable {
        /// Programmes with a channel and a valid start, as read.
        public var read = 0
        public var otherChannels = 0
        /// Dropped on arrival for the window (more may go when pending ones are tidied).
        public var outsideWindow = 0
        /// Last programmes of a channel with no stop time and nothing after them.
        public var unknownEnd = 0
        /// Past `GuideLimits.programmesPerChannel` for their channel.
        public var overChannelLimit = 0
        /// Problems not kept, past `GuideLimits.problems`.
        public var problemsDropped = 0
        public init() {}
    }

    struct Pending: Sendable {
        var programme: Programme
        var stopKnown: Bool
        /// Dropped for ending before the window; kept until the next tidy-up
        /// only so that it still wins over an earlier-listed programme with
        /// the same start, as it would in the whole list.
        var dropped = false
    }

    struct ChannelState: Sendable {
        var pending: [Pending] = []
        /// The latest start of a programme dropped because it ended before the window.
        var pastBoundary: Date?
        /// The earliest start of a programme dropped because it starts after the window.
        var futureBoundary: Date?
    }

    var states: [String: ChannelState] = [:]
    var channels: [String: GuideChannel] = [:]
    var sinceCompaction = 0
    /// How many programmes may arrive between two tidy-ups.
    public var compactionInterval = 20_000

    public init(source: String, window: GuideWindow? = nil, wanted: GuideWanted? = nil) {
        self.source = source
        self.window = window
        self.wanted = wanted
    }

    func keeps(_ id: String) -> Bool {
        guard let wanted else { return true }
        return wanted.ids.contains(id) || namedIDs.contains(id)
    }

    public mutating func problem(line: Int, _ message: String) {
        guard problems.count < GuideLimits.problems else {
            counts.problemsDropped += 1
            return
        }
        // A message quotes the guide's own text: a line of the log, not a megabyte.
        let shown = message.count > 300 ? message.prefix(300) + "…" : Substring(message)
        problems.append(InputProblem(source: source, line: line, message: String(shown)))
    }

    public mutating func add(channel: GuideChannel) {
        if let wanted, !wanted.ids.contains(channel.id) {
            guard channel.displayNames.contains(where: { wanted.names.contains(GuideWanted.key($0)) }),
                  namedIDs.count < GuideLimits.channels else { return }
            namedIDs.insert(channel.id)
        }
        channels[channel.id] = channel
    }

    /// Adds a programme; `stop == nil` when the guide gave none.
    public mutating func add(_ programme: Programme, stopKnown: Bool) {
        counts.read += 1
        let id = programme.channelID
        if !keeps(id) {
            counts.otherChannels += 1
            return
        }
        if let window {
            if programme.start >= window.upperBound {
                counts.outsideWindow += 1
                states[id, default: ChannelState()].futureBoundary =
                    min(states[id]?.futureBoundary ?? programme.start, programme.start)
                return
            }
            if stopKnown, programme.stop <= window.lowerBound {
                counts.outsideWindow += 1
                states[id, default: ChannelState()].pastBoundary =
                    max(states[id]?.pastBoundary ?? programme.start, programme.start)
                let marker = Programme(channelID: id, start: programme.start, stop: programme.stop, title: "")
                states[id]!.pending.append(Pending(programme: marker, stopKnown: true, dropped: true))
                sinceCompaction += 1
                if sinceCompaction >= compactionInterval { compact() }
                return
            }
        }
        if states[id]?.pending.count ?? 0 >= GuideLimits.programmesPerChannel {
            states[id]!.pending = resolve(states[id]!, final: false).kept
            if states[id]!.pending.count >= GuideLimits.programmesPerChannel {
                if counts.overChannelLimit == 0 {
                    problem(line: 0, "channel \(id) has more than \(GuideLimits.programmesPerChannel) programmes; the rest are dropped")
                }
                counts.overChannelLimit += 1
                return
            }
        }
        states[id, default: ChannelState()].pending.append(Pending(programme: programme, stopKnown: stopKnown))
        sinceCompaction += 1
        if sinceCompaction >= compactionInterval { compact() }
    }

    /// Tidies every channel's pending programmes and drops what the window no longer keeps.
    public mutating func compact() {
        sinceCompaction = 0
        for id in Array(states.keys) {
            states[id]!.pending = resolve(states[id]!, final: false).kept
        }
    }

    /// The guide: every pending programme resolved, tidied and trimmed.
    public mutating func finish() -> Guide {
        var programmes: [Programme] = []
        for id in states.keys.sorted() {
            let resolved = resolve(states[id]!, final: true)
            programmes += resolved.kept.map(\.programme)
            counts.unknownEnd += resolved.unknownEnd
        }
        states = [:]
        return Guide(programmes: programmes, channels: channels.values.sorted { $0.id < $1.id }, window: window)
    }

    /// One channel: sorted by start (the later listed wins a tie), each stop
    /// known or taken from the next start, overlaps cut, the window applied.
    /// Not `final`: a programme still waiting for its next one stays pending.
    func resolve(_ state: ChannelState, final: Bool) -> (kept: [Pending], unknownEnd: Int) {
        let sorted = state.pending.enumerated().sorted { a, b in
            a.element.programme.start != b.element.programme.start
                ? a.element.programme.start < b.element.programme.start : a.offset < b.offset
        }.map(\.element)
        var list: [Pending] = []
        list.reserveCapacity(sorted.count)
        for item in sorted {
            if let last = list.last, last.programme.start == item.programme.start { list.removeLast() }
            list.append(item)
        }
        var result: [Pending] = []
        result.reserveCapacity(list.count)
        var unknownEnd = 0
        for index in list.indices where !list[index].dropped {
            var item = list[index]
            // Where the next programme starts, counting those dropped for the window.
            var nextStart = index + 1 < list.count ? list[index + 1].programme.start : nil
            if let future = state.futureBoundary, future > item.programme.start {
                nextStart = min(nextStart ?? future, future)
            }
            if let past = state.pastBoundary, past > item.programme.start {
                nextStart = min(nextStart ?? past, past)
            }
            if let nextStart {
                if !item.stopKnown || item.programme.stop > nextStart {
                    item.programme.stop = nextStart
                    item.stopKnown = true
                }
            } else if !item.stopKnown {
                if final { unknownEnd += 1; continue }
                result.append(item)
                continue
            }
            guard item.programme.stop > item.programme.start else { continue }
            if let window, !window.keeps(start: item.programme.start, stop: item.programme.stop) { continue }
            result.append(item)
        }
        return (result, unknownEnd)
    }
}
