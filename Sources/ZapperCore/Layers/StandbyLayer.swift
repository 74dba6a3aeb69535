import Foundation

/// Day-parting and standby as a layer: the `[[schedule]]` entries (`ScheduleWatcher`) looked
/// at once a second, and standby, which blanks the screen and stops the channel.
///
/// - What applies at start is applied at once (a channel, the sound, the panel, standby), but
///   the TV's power is touched only at an entry's edge (a hotel box that restarts at night
///   stays quiet).
/// - What began sets the channel and the sound; what ended leaves them as they are. The
///   channel is tuned only out of standby, when the lineup has it and it is not already tuned.
/// - In standby any key wakes the box (and the TV) until the next edge, and does nothing else.
/// - The panel (and the guide) may open unless in standby or an entry that applies says no
///   (else `[signage] panel` decides).
public struct StandbyLayer: ScreenLayer, Equatable {
    public enum Effect: Sendable, Equatable {
        /// A `[[schedule]]` entry (counted from 1 in the file) began or ended.
        case schedule(entry: Int, began: Bool)
        /// Into standby (the channel stopped, other modes closed) or out of it, and why
        /// (`schedule`, `key`); `touchTV`: the TV's power to follow.
        case standby(on: Bool, reason: String, touchTV: Bool)
        case sound(volume: Int?, muted: Bool?)
        case tune(channel: Int)
    }

    public struct Context {
        public var date: Date
        /// The channel tuned or being tuned.
        public var target: Int
        /// Whether the lineup has a channel of that number.
        public var hasChannel: (Int) -> Bool

        public init(date: Date, target: Int, hasChannel: @escaping (Int) -> Bool) {
            self.date = date
            self.target = target
            self.hasChannel = hasChannel
        }
    }

    public private(set) var inStandby = false
    /// What the entries that apply say of the panel (nil: nothing).
    public private(set) var scheduledPanel: Bool?
    private var watcher: ScheduleWatcher?
    private var checkDue = 0
    private let panelDisabled: Bool

    /// `schedule`: nil or empty for none; `panelDisabled`: `[signage] panel = false`.
    public init(schedule: ScheduleWatcher?, panelDisabled: Bool) {
        watcher = schedule?.entries.isEmpty == false ? schedule : nil
        self.panelDisabled = panelDisabled
    }

    /// The panel (and the guide) may open.
    public var panelAllowed: Bool { !inStandby && (scheduledPanel ?? !panelDisabled) }

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        guard inStandby else { return nil }
        return set(false, reason: "key", touchTV: true)
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        guard now >= checkDue, watcher != nil else { return [] }
        checkDue = now + 1000
        guard let change = watcher?.look(at: context.date), let entries = watcher?.entries else { return [] }
        var effects = change.ended.map { Effect.schedule(entry: $0 + 1, began: false) }
            + change.began.map { Effect.schedule(entry: $0 + 1, began: true) }
        let began = change.began.compactMap { entries.indices.contains($0) ? entries[$0] : nil }
        scheduledPanel = change.state.panel
        if change.state.standby != inStandby {
            effects += set(change.state.standby, reason: "schedule", touchTV: !change.atStart)
        }
        if let level = began.last(where: { $0.volume != nil || $0.muted != nil }) {
            effects.append(.sound(volume: level.volume, muted: level.muted))
        }
        if !inStandby, let channel = began.last(where: { $0.channel != nil })?.channel, context.hasChannel(channel),
           context.target != channel {
            effects.append(.tune(channel: channel))
        }
        return effects
    }

    private mutating func set(_ on: Bool, reason: String, touchTV: Bool) -> [Effect] {
        guard on != inStandby else { return [] }
        inStandby = on
        return [.standby(on: on, reason: reason, touchTV: touchTV)]
    }
}
