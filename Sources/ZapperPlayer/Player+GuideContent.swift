import Foundation
import ZapperCore

/// What the full-screen guide shows this frame: only its visible rows are looked up and laid
/// out, each programme placed across the two hours; the focused one's details on top. The
/// content changes only with a key, a new minute or a logo (so the overlay is not redrawn
/// at every frame).
extension Player {
    func guideContent(at date: Date) -> GuideGridContent? {
        guard let grid = guideGrid else { return nil }
        let minute = Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let width = GuideGridNavigator.width
        let playing = tuner.view.tuned
        var rows: [GuideGridContent.Row] = []
        var focused: Programme?
        for index in grid.visibleRange {
            guard let number = guideRows[safe: index], let channel = channels[number] else { continue }
            let list = guide?.programmes(for: channel, from: grid.start, to: grid.end) ?? []
            let isRow = index == grid.row
            var cells: [GuideGridContent.Cell] = []
            var at = grid.start
            func fraction(_ time: Date) -> Double { min(1, max(0, time.timeIntervalSince(grid.start) / width)) }
            func gap(until end: Date) {
                // The stretch the guide knows nothing about, a half hour at a time.
                while at < end {
                    let stop = min(end, GuideGridNavigator.floor(at) + GuideGridNavigator.column)
                    let focusHere = isRow && grid.anchor >= at && grid.anchor < stop
                    cells.append(.init(title: "No information", from: fraction(at), to: fraction(stop), focused: focusHere, isGap: true))
                    at = stop
                }
            }
            for programme in list {
                gap(until: programme.start)
                let isFocus = isRow && programme.isOn(at: grid.anchor)
                if isFocus { focused = programme }
                cells.append(.init(title: programme.title, from: fraction(programme.start), to: fraction(programme.stop), focused: isFocus,
                                   onNow: programme.isOn(at: minute), reminder: reminderLayer.reminders.has(channel: channel, start: programme.start)))
                at = max(at, programme.stop)
            }
            gap(until: grid.end)
            rows.append(.init(channel: identity(of: number), cells: cells, favourite: favourites.contains(channel), playing: number == playing))
        }
        let nowFraction = minute.timeIntervalSince(grid.start) / width
        let lineupCount = guideRows.count
        return GuideGridContent(details: guideDetails(focused, grid: grid, at: minute),
                                columns: (0..<GuideGridNavigator.columns).map { GuideStore.time(grid.start + Double($0) * GuideGridNavigator.column) },
                                nowAt: (0...1).contains(nowFraction) ? nowFraction : nil, rows: rows,
                                position: lineupCount > 50 ? "\(grid.row + 1) of \(lineupCount)" : nil,
                                day: Self.dayName(grid.start, today: minute))
    }

    private func guideDetails(_ programme: Programme?, grid: GuideGridNavigator, at now: Date) -> GuideGridContent.Details {
        let number = guideRows[safe: grid.row] ?? 0
        let channelLine = "\(number)  \(channels[number]?.name ?? "")"
        guard let programme, let channel = channels[number] else {
            let half = GuideGridNavigator.floor(grid.anchor)
            let when = "\(Self.dayName(half, today: now)) \(GuideStore.time(half)) – \(GuideStore.time(half + GuideGridNavigator.column))"
            return .init(channel: channelLine, title: "No information", when: when,
                         hint: half <= now && now < half + GuideGridNavigator.column ? "OK to watch" : nil)
        }
        let onNow = programme.isOn(at: now)
        let reminded = reminderLayer.reminders.has(channel: channel, start: programme.start)
        let hint = onNow ? "OK to watch" : programme.start > now ? (reminded ? "Reminder set · OK to clear" : "OK to set a reminder") : nil
        return .init(channel: channelLine, title: programme.title, subTitle: programme.subTitle,
                     when: "\(Self.dayName(programme.start, today: now)) \(GuideStore.timeRange(programme))",
                     description: programme.description, rating: programme.rating?.value,
                     progress: onNow ? (programme.progress(at: now) * 64).rounded() / 64 : nil, hint: hint)
    }

    /// "Today", "Tomorrow", "Yesterday" or "Wed 25 Nov" (in the box's time zone).
    static func dayName(_ date: Date, today: Date) -> String { LocalTime.dayName(date, today: today) }
}
