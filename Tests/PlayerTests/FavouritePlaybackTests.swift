import Foundation
import Testing
import TestSupport
import ZapperCore

/// Favourites through the real binary: the favourite key on two channels, kept in
/// the state file; with `flip-within = "favourites"` CH+ goes from one to the other.
extension ZapperPlaybackTests {
    @Test func favouritesAreKeptAndCHStepsThroughThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-fav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("zapper.toml")
        try "flip-within = \"favourites\"\n".write(to: config, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state").path
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--state-dir", state, "--size", "320x180"],
                                      script: """
            wait-event first-frame 20000
            press KEY_FAVORITES
            press KEY_5
            wait-event first-frame 20000
            press KEY_F
            press KEY_CHANNELUP
            wait-event first-frame 20000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.favourite).map(\.event) == [.favourite(channel: 1, on: true), .favourite(channel: 5, on: true)])
        // CH+ from 5 skips 6 to 10: the next favourite, wrapping, is 1.
        #expect(run.tunes.map(\.channel) == [1, 5, 1], "\(run.named(.tune))")
        let saved = try String(contentsOfFile: state + "/state.json", encoding: .utf8)
        #expect(saved.contains("\"favourites\"") && saved.contains("\"recents\""), "\(saved)")
    }
}
