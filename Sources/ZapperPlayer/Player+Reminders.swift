import Foundation
import ZapperCore

/// Reminders set in the guide: a `ReminderLayer` (its rules are there) whose effects are
/// carried out here.
extension Player {
    func toggleReminder(channel number: Int, _ programme: Programme) {
        guard let channel = channels[number] else { return }
        carry(reminderLayer.toggle(channel: channel, programme), now: log.now)
    }

    /// Once a second: the notice of the reminder due, switching at the start when set to, and
    /// reminders whose time is over taken away.
    func reminderTick(now: Int, date: Date) {
        carry(reminderLayer.tick(now: now, in: reminderContext(date)), now: now)
    }

    /// OK while a reminder's notice is up (and nothing else takes keys): its channel is tuned.
    func reminderTakes(_ action: Action, now: Int) -> Bool {
        guard let effects = reminderLayer.take(action, now: now, in: reminderContext(clock.date)) else { return false }
        carry(effects, now: now)
        return true
    }

    /// What the notice says, nil when none is up.
    func reminderText(at date: Date) -> String? {
        reminderLayer.notice(at: date, number: number(ofKey:)) { self.channels[$0]?.name ?? "" }
    }

    private func carry(_ effects: [ReminderLayer.Effect], now: Int) {
        for effect in effects {
            switch effect {
            case let .told(channel, start, action): log.emit(.reminder(channel: channel, start: start, action: action))
            case .keep(let entries): keeper.change { $0.reminders = entries }
            case .tune(let channel):
                closeGuide(.chosen)
                apply(tuner.handle(.select(channel), now: now))
            }
        }
    }

    private func reminderContext(_ date: Date) -> ReminderLayer.Context {
        ReminderLayer.Context(date: date, target: tuner.view.target, typingNumber: tuner.view.digits != nil, number: number(ofKey:))
    }

    /// The channel number a state key (a reminder's channel) has in this lineup.
    private func number(ofKey key: String) -> Int? {
        lineup.first { $0.stateKey == key }?.number
    }
}
