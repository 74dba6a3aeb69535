import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperSettings

/// kill -9 at random moments while the state is being saved (issue 6): `zapper-state-writer`
/// saves without pause, so most kills land inside a save; after each, `state.json` must be a
/// whole state, the one before or the one being written, never torn or empty.
@Suite(.timeLimit(.minutes(3)))
struct StateKillTests {
    @Test func killedAtRandomMomentsWhileSavingTheFileIsAlwaysWhole() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-state-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try store.save(ZapperState(lastChannel: 1))
        var generator = SystemRandomNumberGenerator()
        var midSave = 0
        let rounds = 60
        for round in 0..<rounds {
            let writer = Process()
            writer.executableURL = Repo.productsDirectory.appendingPathComponent("zapper-state-writer")
            writer.arguments = [directory.path]
            let output = Pipe()
            writer.standardOutput = output
            try writer.run()
            // Its "saving" line, then a random moment within the next 40 ms.
            let said = await Task.detached { output.fileHandleForReading.availableData }.value
            #expect(String(decoding: said, as: UTF8.self).hasPrefix("saving"), "round \(round)")
            try await Task.sleep(for: .microseconds(Int.random(in: 0...40_000, using: &generator)))
            kill(writer.processIdentifier, SIGKILL)
            await Task.detached { writer.waitUntilExit() }.value
            #expect(writer.terminationReason == .uncaughtSignal, "round \(round): the writer ended by itself")
            // A save cut short leaves its temporary file; the state file itself is whole.
            if FileManager.default.fileExists(atPath: store.temporaryFile.path) { midSave += 1 }
            let data = try Data(contentsOf: store.file)
            let state = try ZapperState.decode(data)
            #expect(state.lastChannel != nil, "round \(round): \(data.count) bytes")
        }
        print("\(midSave) of \(rounds) kills landed while a temporary state file was open")
        // Proof that the kills hit saves in progress, not only the gaps between them.
        #expect(midSave >= rounds / 10, "only \(midSave) of \(rounds) kills landed inside a save")
        // And the next start reads it, cleaning up the cut-short save.
        #expect(store.load().message == nil)
        #expect(!FileManager.default.fileExists(atPath: store.temporaryFile.path))
    }
}
