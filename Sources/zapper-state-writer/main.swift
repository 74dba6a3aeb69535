import Foundation
import ZapperCore
import ZapperSettings

// For the kill -9 test of the state file (Tests/SettingsTests/StateKillTests.swift): saves
// the state into the directory given, one save after another with no pause, until killed,
// so that a kill at a random moment lands inside a save (write, fsync, rename, fsync the
// directory) most of the time. Says "saving" on stdout before the first save.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: zapper-state-writer DIRECTORY\n".utf8))
    exit(2)
}
do {
    let store = try StateStore(directory: URL(fileURLWithPath: CommandLine.arguments[1]))
    // A box with a few hundred channels, each with its own audio and subtitle choice.
    var state = ZapperState(lastChannel: 1, lastChannelKey: "tvg:channel-1")
    for channel in 1...300 {
        state.audio["tvg:channel-\(channel)"] = ["en", "de", "fr"][channel % 3]
        state.subtitles["tvg:channel-\(channel)"] = ["off", "en"][channel % 2]
    }
    FileHandle.standardOutput.write(Data("saving\n".utf8))
    var count = 0
    while true {
        count += 1
        state.lastChannel = 1 + count % 300
        state.lastChannelKey = "tvg:channel-\(1 + count % 300)"
        state.volume = count % 101
        try store.save(state)
    }
} catch {
    FileHandle.standardError.write(Data("zapper-state-writer: \(error)\n".utf8))
    exit(1)
}
