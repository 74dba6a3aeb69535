import Foundation

extension ZapperState {
    /// A state at every bound its reader keeps: each per-channel map full of long keys (a
    /// provider's stream URLs), every favourite, recent, level and reminder there may be. The
    /// largest state zapper ever writes; the state's bounds tests and `zapper-bench inputs`
    /// read and save it.
    public static func atItsBounds() -> ZapperState {
        var state = ZapperState(lastChannel: 1, lastChannelKey: "tvg:channel-1.example")
        let path = String(repeating: "k", count: 40)
        for index in 0..<mostChannelChoices {
            let key = "https://provider.example.net/live/\(path)/\(index).m3u8"
            state.audio[key] = "deu"
            state.subtitles[key] = "dvb:Deutsch"
            state.sources[key] = key + "?backup=2"
        }
        state.favourites = Favourites(keys: (0..<Favourites.limit).map { "tvg:channel-\($0).example" }).keys
        state.recents = Recents(keys: (0..<Recents.limit).map { "tvg:channel-\($0).example" }).keys
        var levels = LevelMemory()
        for index in 0..<LevelMemory.limit { levels.remember(-3, for: "tvg:channel-\(index).example") }
        state.levels = levels
        state.reminders = Reminders((0..<Reminders.limit).map {
            Reminder(channel: "tvg:channel-\($0).example", start: Date(timeIntervalSince1970: 2_000_000_000 + Double($0) * 1800),
                     title: String(repeating: "A long programme title ", count: 8))
        }).entries
        return state
    }
}
