import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperEngine

/// The guide offline: a read that works is kept in the state directory; when no guide can be
/// read (a box starting without a network), the kept copy stands in, marked stale, and the
/// binary says so in its `guide-loaded` event.
extension ZapperPlaybackTests {
    @Test func theLastGoodGuideStandsInWhenNoneCanBeRead() async throws {
        let origin = try OriginProcess.shared.get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-guide-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = GuideCache(file: folder.appendingPathComponent("guide-cache.json"))
        let window = GuideWindow(now: Date())
        let wanted = GuideWanted(lineup: M3UPlusParser.parse(try demoLineup(), source: "demo").channels)
        let good = try await XMLTVGuideLoader(sources: ["http://127.0.0.1:\(origin.port)/guide.xml"], cache: cache).load(window: window, wanted: wanted)
        #expect(good.staleSince == nil && good.guide.programmeCount > 0)
        let dead = XMLTVGuideLoader(sources: ["http://127.0.0.1:9/guide.xml"], cache: cache)
        let stale = try await dead.load(window: window, wanted: wanted)
        #expect(stale.staleSince != nil && stale.guide.programmeCount == good.guide.programmeCount)
        #expect(stale.problems.first?.contains("stands in") == true, "\(stale.problems)")
        try Data("{not json".utf8).write(to: cache.file)
        await #expect(throws: (any Error).self) { try await dead.load(window: window, wanted: wanted) }

        // Through the binary: a first run reads the guide and keeps it; a second whose guide
        // cannot be reached plays with the copy.
        let state = folder.appendingPathComponent("state").path
        let first = try await runZapper(lineup: try demoLineup(), arguments: ["--state-dir", state, "--size", "320x180"],
                                        script: "wait-event guide-loaded 30000\nquit\n")
        #expect(first.status == 0 && guideRead(first.named(.guideLoaded).first)?.stale == false, "\(first.stderr)")
        let second = try await runZapper(lineup: try demoLineup(), arguments: ["--state-dir", state, "--size", "320x180",
                                                                               "--guide", "http://127.0.0.1:9/guide.xml"],
                                         script: "wait-event guide-loaded 30000\nquit\n")
        let loaded = try #require(guideRead(second.named(.guideLoaded).first))
        #expect(loaded.stale == true && loaded.programmes > 0, "\(second.stderr)")
    }

    /// A `guide-loaded`'s programmes and whether they are the kept copy's.
    private func guideRead(_ event: LoggedEvent?) -> (programmes: Int, stale: Bool)? {
        if case let .guideLoaded(programmes, stale)? = event?.event { (programmes, stale) } else { nil }
    }
}
