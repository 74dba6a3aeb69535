import Foundation

/// Reminders set in the guide, and the notice of the one due, as a layer.
///
/// - A minute before the programme (`Reminders.notice`) its notice comes up ("OK to switch"),
///   told once; OK then tunes its channel (unless a channel number is being typed), and so
///   does the start itself with `[signage] switch-at-reminders`. Switching closes the guide.
/// - Already on its channel: no notice; at the start the reminder is done and goes.
/// - A minute after the start (`Reminders.grace`) a reminder nobody followed goes; if its
///   notice was up that is told (`missed`).
/// - Every change of the reminders is to be kept in the state (a restart keeps them); they are
///   looked at once a second, not every frame.
public struct ReminderLayer: ScreenLayer, Equatable {
    public enum Effect: Sendable, Equatable {
        /// A reminder's event: set, cleared, due, switched or missed (`start`: seconds since 1970).
        case told(channel: Int, start: Int, action: PlayerEvent.ReminderAction)
        /// The reminders changed: the state is to keep these.
        case keep([Reminder])
        /// The reminder's channel is to be tuned, the guide closed first.
        case tune(channel: Int)
    }

    public struct Context {
        public var date: Date
        /// The channel tuned or being tuned (the tuner's target).
        public var target: Int
        /// A channel number is being typed (OK finishes it, not the notice).
        public var typingNumber: Bool
        /// The number a reminder's channel (its state key) has in this lineup.
        public var number: (String) -> Int?

        public init(date: Date, target: Int, typingNumber: Bool, number: @escaping (String) -> Int?) {
            self.date = date
            self.target = target
            self.typingNumber = typingNumber
            self.number = number
        }
    }

    public private(set) var reminders: Reminders
    /// The reminder whose notice is up.
    public private(set) var noticed: Reminder?
    private var kept: [Reminder]
    private var checkDue = 0
    private let switchAtStart: Bool

    /// `kept`: the reminders the state holds; `switchAtStart`: `[signage] switch-at-reminders`.
    public init(kept: [Reminder], switchAtStart: Bool) {
        reminders = Reminders(kept)
        self.kept = reminders.entries
        self.switchAtStart = switchAtStart
    }

    /// Sets a reminder on the programme in the guide, or clears the one set.
    public mutating func toggle(channel: LineupChannel, _ programme: Programme) -> [Effect] {
        let on = reminders.toggle(channel: channel, programme)
        return keep() + [.told(channel: channel.number, start: Self.seconds(programme.start), action: on ? .set : .cleared)]
    }

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        guard action == .ok, let noticed, !context.typingNumber, reminders.entries.contains(noticed) else { return nil }
        guard let number = context.number(noticed.channel) else { return [] }
        return switchTo(noticed, number)
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        guard now >= checkDue else { return [] }
        checkDue = now + 1000
        var effects: [Effect] = []
        for over in reminders.removeOver(at: context.date) where over == noticed {
            effects.append(.told(channel: context.number(over.channel) ?? 0, start: Self.seconds(over.start), action: .missed))
        }
        if let noticed, !reminders.entries.contains(noticed) { self.noticed = nil }
        if kept != reminders.entries { effects += keep() }
        guard let due = reminders.due(at: context.date), let number = context.number(due.channel) else { return effects }
        if context.target == number {
            // Already there: nothing to remind of.
            if context.date >= due.start { effects += finish(due) }
            return effects
        }
        if noticed != due {
            noticed = due
            effects.append(.told(channel: number, start: Self.seconds(due.start), action: .due))
        }
        if switchAtStart, context.date >= due.start { effects += switchTo(due, number) }
        return effects
    }

    /// What the notice says ("In 1 min on 5 Magenta Arena: The News · OK to switch"), nil when none is up.
    public func notice(at date: Date, number: (String) -> Int?, name: (Int) -> String) -> String? {
        guard let noticed, let channel = number(noticed.channel) else { return nil }
        let when = noticed.start > date ? "In 1 min" : "Now"
        return "\(when) on \(channel) \(name(channel)): \(noticed.title) · OK to switch"
    }

    private mutating func switchTo(_ reminder: Reminder, _ number: Int) -> [Effect] {
        [.told(channel: number, start: Self.seconds(reminder.start), action: .switched)] + finish(reminder) + [.tune(channel: number)]
    }

    private mutating func finish(_ reminder: Reminder) -> [Effect] {
        reminders.remove(reminder)
        if noticed == reminder { noticed = nil }
        return keep()
    }

    private mutating func keep() -> [Effect] {
        kept = reminders.entries
        return [.keep(kept)]
    }

    private static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }
}
