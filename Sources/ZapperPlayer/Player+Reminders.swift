import Foundation
import ZapperCore

/// Reminders set in the guide: a minute before the programme a small notice says what is
/// coming ("OK to switch"); OK then tunes it. With `[signage] switch-at-reminders` the channel
/// is tuned by itself at the start. A reminder nobody followed goes a minute after the start.
/// Kept in the state, so a restart keeps them.
extension Player {
    func toggleReminder(channel number: Int, _ programme: Programme) {
        guard let channel = channels[number] else { return }
        let on = reminders.toggle(channel: channel, programme)
        keepReminders()
        log.emit(.reminder(channel: number, start: Int(programme.start.timeIntervalSince1970), action: on ? .set : .cleared))
    }

    /// Once a second: the notice of the reminder due, switching at the start when set to, and
    /// reminders whose time is over taken away.
    func reminderTick(now: Int, date: Date) {
        guard now >= reminderCheckDue else { return }
        reminderCheckDue = now + 1000
        for over in reminders.removeOver(at: date) {
            if over != reminderNoticed { continue }
            log.emit(.reminder(channel: number(of: over) ?? 0, start: Int(over.start.timeIntervalSince1970), action: .missed))
        }
        if reminderNoticed.map({ !reminders.entries.contains($0) }) ?? false { reminderNoticed = nil }
        keepRemindersIfChanged()
        guard let due = reminders.due(at: date), let number = number(of: due) else { return }
        if tuner.view.target == number {
            // Already there: nothing to remind of.
            if date >= due.start { finish(due) }
            return
        }
        if reminderNoticed != due {
            reminderNoticed = due
            log.emit(.reminder(channel: number, start: Int(due.start.timeIntervalSince1970), action: .due))
        }
        if options.config.signage.switchAtReminders, date >= due.start { switchTo(due, now: now) }
    }

    /// OK while a reminder's notice is up (and nothing else takes keys): its channel is tuned.
    func reminderTakes(_ action: Action, now: Int) -> Bool {
        guard action == .ok, let noticed = reminderNoticed, tuner.view.digits == nil,
              reminders.entries.contains(noticed) else { return false }
        switchTo(noticed, now: now)
        return true
    }

    /// What the notice says ("In 1 min on 5 Magenta Arena: The News · OK to switch").
    func reminderText(at date: Date) -> String? {
        guard let noticed = reminderNoticed, let number = number(of: noticed) else { return nil }
        let name = channels[number]?.name ?? ""
        let when = noticed.start > date ? "In 1 min" : "Now"
        return "\(when) on \(number) \(name): \(noticed.title) · OK to switch"
    }

    private func switchTo(_ reminder: Reminder, now: Int) {
        guard let number = number(of: reminder) else { return }
        log.emit(.reminder(channel: number, start: Int(reminder.start.timeIntervalSince1970), action: .switched))
        finish(reminder)
        closeGuide(.chosen)
        apply(tuner.handle(.select(number), now: now))
    }

    private func finish(_ reminder: Reminder) {
        reminders.remove(reminder)
        if reminderNoticed == reminder { reminderNoticed = nil }
        keepReminders()
    }

    /// The channel number a reminder's key has in this lineup.
    private func number(of reminder: Reminder) -> Int? {
        lineup.first { $0.stateKey == reminder.channel }?.number
    }

    private func keepReminders() {
        let entries = reminders.entries
        keptReminders = entries
        keeper.change { $0.reminders = entries }
    }

    private func keepRemindersIfChanged() {
        if keptReminders != reminders.entries { keepReminders() }
    }
}
