import Foundation
import Testing
import TestSupport
import ZapperCore

/// The full-screen guide through the real binary, with the origin's guide: the guide key
/// opens it over the dimmed picture, the focus moves a channel down and a programme on,
/// OK there sets a reminder (kept in the state file), and OK on what is on now tunes it.
extension ZapperPlaybackTests {
    @Test func theGuideOpensMovesSetsAReminderAndTunes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-guide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state").path
        let snapshot = folder.appendingPathComponent("guide.png").path
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--state-dir", state, "--size", "1280x720"], script: """
            wait-event guide-loaded 30000
            wait 1500
            press KEY_EPG
            wait-event guide-opened 5000
            press KEY_DOWN
            press KEY_RIGHT
            wait 500
            snapshot \(snapshot)
            press KEY_ENTER
            wait-event reminder 5000
            press KEY_LEFT
            press KEY_ENTER
            wait-event first-frame 20000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.guideOpened).first?.channel == 1)
        let focus = run.events.compactMap { if case let .guideFocus(channel, start, _) = $0.event { (channel, start) } else { nil } }
        #expect(focus.count == 3 && focus.map(\.0) == [2, 2, 2], "\(focus)")
        #expect(focus.count == 3 && focus[1].1 == focus[0].1 + 1800 && focus[2].1 == focus[0].1, "a half hour on, and back")
        let reminders = run.events.compactMap {
            if case let .reminder(channel, start, action) = $0.event { (channel: channel, start: start, action: action) } else { nil }
        }
        let reminder = try #require(reminders.first)
        #expect(reminder.channel == 2 && reminder.action == .set && reminder.start == focus.dropFirst().first?.1)
        #expect(run.named(.guideClosed).first?.event == .guideClosed(reason: .chosen))
        #expect(run.tunes.last?.channel == 2 && run.named(.firstFrame).last?.channel == 2)
        // The snapshot: the guide over the dimmed picture, not channel 1's red.
        let seen = try await medianColour(snapshot)
        #expect(seen.0 < 90 && seen.1 < 90 && seen.2 < 90 && abs(seen.0 - seen.2) < 30, "median \(seen)")
        let saved = try String(contentsOfFile: state + "/state.json", encoding: .utf8)
        #expect(saved.contains("\"reminders\"") && saved.contains("\"start\" : \(reminder.start)"), "\(saved)")
    }
}
