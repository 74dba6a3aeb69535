import Foundation
import Testing
import TestSupport

/// zapper's allocator is jemalloc with the settings it builds in, and zapper says so once it has
/// started; when another allocator serves the process (here glibc's, preloaded), it says that instead.
extension ZapperPlaybackTests {
    private static let deadLineup = "#EXTM3U\n#EXTINF:-1,Dead\nhttp://127.0.0.1:9/x.m3u8\n"

    private func allocatorLine(environment: [String: String]) async throws -> (line: String, run: Run) {
        let run = await (try await LaunchedZapper(lineup: Self.deadLineup, arguments: ["--size", "320x180"],
                                                      script: "quit\n", environment: environment)).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let line = run.stderr.split(separator: "\n").first { $0.hasPrefix("zapper: allocator") }
        return (line.map(String.init) ?? "", run)
    }

    @Test func zapperAllocatesWithJemallocAndItsBuiltInSettings() async throws {
        // An empty MALLOC_CONF overrides nothing: the settings are zapper's own.
        let (line, run) = try await allocatorLine(environment: ["MALLOC_CONF": ""])
        #expect(line.hasPrefix("zapper: allocator jemalloc 5."), "\(run.stderr)")
        #expect(line.hasSuffix(": 1 arena, background thread, dirty pages kept 250 ms, muzzy 0 ms"), "\(run.stderr)")
    }

    @Test func anotherAllocatorInChargeIsSaid() async throws {
        let libc = try #require(["/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6", "/lib64/libc.so.6"]
            .first { FileManager.default.fileExists(atPath: $0) })
        let (line, run) = try await allocatorLine(environment: ["LD_PRELOAD": libc])
        #expect(line.hasPrefix("zapper: allocator: malloc is from \(libc), not jemalloc 5."), "\(run.stderr)")
    }
}
