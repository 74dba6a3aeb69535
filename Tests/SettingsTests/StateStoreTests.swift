import Foundation
import Synchronization
import Testing
import ZapperCore
@testable import ZapperSettings

@Suite struct StateStoreTests {
    /// A new empty directory, removed afterwards by the caller.
    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("zapper-state-\(UUID())")
    }

    static let sample = ZapperState(lastChannel: 4, lastChannelKey: "tvg:four", volume: 42, muted: true,
                                    audio: ["tvg:four": "fra"], subtitles: ["tvg:four": "off"], picture: .fill)

    func files(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func createsItsDirectoryPrivate() throws {
        let directory = Self.scratch().appendingPathComponent("nested")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        _ = try StateStore(directory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func firstStartGivesTheDefaultsQuietly() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loaded = try StateStore(directory: directory).load()
        #expect(loaded == StateStore.Loaded(state: ZapperState(), message: nil))
    }

    @Test func roundTripsAndLeavesNoTemporaryFile() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try store.save(ZapperState(volume: 10))
        try store.save(Self.sample)
        #expect(store.load() == StateStore.Loaded(state: Self.sample, message: nil))
        #expect(try files(directory) == ["state.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test(arguments: [
        ("empty", Data(), "is empty"),
        ("garbage", Data("\u{0}\u{1}garbage".utf8), "is not valid state (not JSON, or cut short"),
        ("truncated", Data(#"{"lastChannel": 4, "volu"#.utf8), "is not valid state (not JSON, or cut short"),
        ("wrong shape", Data(#"{"volume": "loud"}"#.utf8), "is not valid state (wrong value at volume"),
    ])
    func aBadFileIsSetAsideAndTheDefaultsComeBack(name: String, contents: Data, what: String) throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try contents.write(to: store.file)
        let when = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
        let loaded = store.load(now: when)
        #expect(loaded.state == ZapperState(), "\(name)")
        let message = try #require(loaded.message)
        #expect(message.hasPrefix("\(store.file.path) \(what)"), "\(message)")
        #expect(message.hasSuffix("moved to state.json.bad-20261118T110640Z, using defaults"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(try files(directory) == ["state.json.bad-20261118T110640Z"])
        let kept = try Data(contentsOf: directory.appendingPathComponent("state.json.bad-20261118T110640Z"))
        #expect(kept == contents)
        // The next start is clean, and a second bad file in the same second does not overwrite the first.
        #expect(store.load(now: when).message == nil)
        try Data("x".utf8).write(to: store.file)
        #expect(store.load(now: when).message?.contains("bad-20261118T110640Z-2") == true)
    }

    @Test func aSaveCutShortLeavesATemporaryFileThatLoadIgnoresAndRemoves() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try store.save(Self.sample)
        try Data(#"{"volu"#.utf8).write(to: directory.appendingPathComponent(".state.json.tmp"))
        #expect(store.load().state == Self.sample)
        #expect(try files(directory) == ["state.json"])
    }

    /// Between every step of a save, state.json is there and whole: the old
    /// state until the rename, the new one after it.
    @Test func theTargetIsNeverAbsentOrPartialDuringASave() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var store = try StateStore(directory: directory)
        let old = ZapperState(lastChannel: 1)
        try store.save(old)
        let seen = Mutex<[(StateStore.SaveStep, ZapperState?)]>([])
        let file = store.file
        store.afterStep = { step in
            let state = (try? Data(contentsOf: file)).flatMap { try? ZapperState.decode($0) }
            seen.withLock { $0.append((step, state)) }
        }
        try store.save(Self.sample)
        let steps = seen.withLock { $0 }
        #expect(steps.map(\.0) == [.wroteTemporary, .syncedTemporary, .renamed, .syncedDirectory])
        #expect(steps.map(\.1) == [old, old, Self.sample, Self.sample])
    }

    @Test func savesAreCheapEnoughForEveryChange() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for volume in 0..<50 { try store.save(ZapperState(volume: volume)) }
        }
        print("50 saves took \(elapsed)")
        #expect(store.load().state.volume == 49)
        #expect(elapsed < .seconds(10))
    }

    @Test func choosesTheStateDirectory() throws {
        let scratch = Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(StateStore.directory(flag: "/srv/zapper").path == "/srv/zapper")
        let system = scratch.appendingPathComponent("var-lib-zapper").path
        #expect(StateStore.directory(flag: nil, systemDirectory: system, environment: [:]).path == system)
        // A system directory that cannot be made: the XDG state home, else ~/.local/state.
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data().write(to: scratch.appendingPathComponent("file"))
        let impossible = scratch.appendingPathComponent("file/zapper").path
        #expect(StateStore.directory(flag: nil, systemDirectory: impossible,
                                     environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/tv"]).path == "/x/state/zapper")
        #expect(StateStore.directory(flag: nil, systemDirectory: impossible,
                                     environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/tv"]).path
            == "/home/tv/.local/state/zapper")
    }
}
