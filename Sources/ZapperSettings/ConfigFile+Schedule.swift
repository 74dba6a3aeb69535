import TOMLKit
import ZapperCore

extension ConfigFile.Reader {
    /// At most this many `[[schedule]]` entries.
    static let scheduleLimit = 64

    /// `[[schedule]]`: day-parting entries (`ScheduleEntry`); a bad entry is reported with its
    /// key and left out, the others kept.
    mutating func readSchedule(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let value = root["schedule"] else { return }
        guard let list = value.array else {
            fail("schedule", nil, "expected [[schedule]] entries, found \(value.type)")
            return
        }
        for (index, item) in list.enumerated() {
            let section = "schedule"
            guard index < Self.scheduleLimit else {
                // The box plays with the first ones: a signage file that grew is no reason for a black screen.
                note("schedule", nil, "\(list.count) entries, more than \(Self.scheduleLimit); the first \(Self.scheduleLimit) are kept, the rest are left out")
                return
            }
            guard let table = item.table else {
                fail("schedule", nil, "entry \(index + 1) is not a table")
                continue
            }
            check(table, section: section, known: ConfigSection.schedule.keys)
            let words = table["days"].flatMap { days -> [String]? in
                if let one = days.string { return [one] }
                return days.array?.compactMap { $0.string }
            } ?? ["daily"]
            guard let days = ScheduleEntry.days(words) else {
                fail("days", section, "entry \(index + 1): \(words) are not days (mon … sun, weekdays, weekends, daily)")
                continue
            }
            guard let fromText = string(table, "from", section: section), let from = ScheduleEntry.minutes(fromText),
                  let toText = string(table, "to", section: section), let to = ScheduleEntry.minutes(toText) else {
                fail("from", section, "entry \(index + 1) needs from and to as HH:MM (00:00 to 23:59)")
                continue
            }
            var entry = ScheduleEntry(days: days, from: from, to: to)
            if let channel = int(table, "channel", section: section) {
                guard channel > 0 else {
                    fail("channel", section, "entry \(index + 1): \(channel) is not a channel number")
                    continue
                }
                entry.channel = channel
            }
            if let volume = int(table, "volume", section: section) {
                guard (0...100).contains(volume) else {
                    fail("volume", section, "entry \(index + 1): \(volume) is not within 0 to 100")
                    continue
                }
                entry.volume = volume
            }
            entry.muted = bool(table, "mute", section: section)
            entry.panel = bool(table, "panel", section: section)
            entry.standby = bool(table, "standby", section: section) ?? false
            config.schedule.append(entry)
        }
    }
}
