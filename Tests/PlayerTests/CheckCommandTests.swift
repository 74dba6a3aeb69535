import Foundation
import Testing
import TestSupport
import ZapperCore

/// `zapper check` on the origin's shapes lineup: every kind of answer told apart, a
/// merged channel found playing on its second source, the dead ones with their
/// reason; its report kept in the state directory, where `hide-dead-channels` takes
/// them out of the panel's list.
extension ZapperPlaybackTests {
    @Test func checkProbesEveryChannelAndThePanelCanHideTheDead() async throws {
        let origin = try OriginProcess.shared.get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("report.json").path
        let state = folder.appendingPathComponent("state").path
        let check = try await Tool.run(Repo.productsDirectory.appendingPathComponent("zapper").path,
                                 ["check", "http://127.0.0.1:\(origin.port)/shapes/lineup.m3u", "--json", json, "--state-dir", state])
        let text = String(decoding: check.stdout, as: UTF8.self)
        #expect(check.status == 1, "some channels of the shapes lineup are dead on purpose: \(text) \(check.stderr)")
        let report = try #require(LineupCheckReport.read(try Data(contentsOf: URL(fileURLWithPath: json))), "\(text)")
        func result(_ number: Int) -> ChannelCheck? { report.channels.first { $0.number == number } }
        for number in [1, 2, 10] {
            #expect(result(number)?.ok == true && result(number)?.kind == .hlsMaster && result(number)?.picture == "426x240", "\(text)")
        }
        for number in [3, 4] { #expect(result(number)?.ok == true && result(number)?.kind == .mpegTS, "\(text)") }
        #expect(result(11)?.ok == true && result(11)?.source == 2 && result(11)?.sources == 2, "the merged channel plays from its backup: \(text)")
        for (number, words) in [5: "a web page", 6: "a DASH manifest", 7: "an empty answer"] {
            #expect(result(number)?.ok == false && result(number)?.failure == "unsupported" && result(number)?.reason?.contains(words) == true, "\(text)")
        }
        #expect(text.contains("6 of 9 channels play; 3 failed: 3 unsupported"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: state + "/" + LineupCheckReport.fileName))

        // The box with `hide-dead-channels` and that state: the three are out of the panel's list.
        let config = folder.appendingPathComponent("zapper.toml")
        try "hide-dead-channels = true\n".write(to: config, atomically: true, encoding: .utf8)
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/lineup.m3u")
        let run = try await runZapper(lineup: lineup.text, arguments: ["--config", config.path, "--state-dir", state, "--size", "320x180"],
                                      script: "wait-event first-frame 20000\nquit\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("hide-dead-channels: 3 channels left out of the panel"), "\(run.stderr)")
    }

    @Test func checkOfTheDemoLineupFindsEveryChannelPlaying() async throws {
        let origin = try OriginProcess.shared.get()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-check-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: json) }
        let check = try await Tool.run(Repo.productsDirectory.appendingPathComponent("zapper").path,
                                 ["check", "http://127.0.0.1:\(origin.port)/demo.m3u", "--json", json, "--state-dir", "none"])
        let text = String(decoding: check.stdout, as: UTF8.self)
        #expect(check.status == 0, "\(text) \(check.stderr)")
        let count = try Repo.catalog().channels.count
        #expect(text.contains("\(count) of \(count) channels play"), "\(text)")
    }
}
