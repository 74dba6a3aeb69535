import Foundation
import Testing
import ZapperCore
@testable import ZapperSettings

/// `state.json` from a hostile or overgrown disk: every collection capped as it is read, the
/// file's size checked before its bytes, and a state at its bounds read and saved quickly.
@Suite struct StateBoundsTests {
    static func full() -> ZapperState { ZapperState.atItsBounds() }

    @Test func aFileOfAHundredThousandSourcesIsCutAsItIsRead() throws {
        var text = "{\"lastChannel\": 5, \"volume\": 30, \"sources\": {"
        text += (0..<100_000).map { "\"k\($0)\": \"http://s.example/\($0)\"" }.joined(separator: ",")
        text += "}}"
        let state = try ZapperState.decode(Data(text.utf8))
        #expect(state.sources.count == ZapperState.mostChannelChoices)
        #expect(state.lastChannel == 5 && state.volume == 30, "the rest of the state is kept")
    }

    @Test func theLineupsChannelsAreKeptFirst() {
        var state = ZapperState()
        for index in 0..<(ZapperState.mostChannelChoices + 10) { state.audio["old-\(index)"] = "eng" }
        state.audio["zz-now-in-the-lineup"] = "fra"
        let bounded = state.bounded(keeping: ["zz-now-in-the-lineup"])
        #expect(bounded.audio.count == ZapperState.mostChannelChoices)
        #expect(bounded.audio["zz-now-in-the-lineup"] == "fra")
    }

    @Test func aFileOverTheBoundIsSetAsideUnreadAndAFullStateIsWellUnderIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-state-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try Data(repeating: 0x20, count: StateStore.maxBytes + 1).write(to: store.file)
        let loaded = store.load()
        #expect(loaded.state == ZapperState())
        #expect(loaded.message?.contains("more than the 4 MB a state may be") == true, "\(loaded.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: store.file.path), "set aside")
        try store.save(Self.full())
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store.file.path)[.size] as? Int)
        #expect(size < StateStore.maxBytes / 2, "a full state is \(size) bytes")
        #expect(store.load().state == Self.full())
    }
}
