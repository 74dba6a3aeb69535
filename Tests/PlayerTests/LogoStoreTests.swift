import Foundation
import OriginKit
import Synchronization
import Testing
import ZapperCore
import ZapperEngine
@testable import ZapperPlayer

/// Channel logos over real HTTP on loopback: fetched once however often the card asks, and a
/// failed fetch tried again only after the retry period.
@Suite(.timeLimit(.minutes(1)))
struct LogoStoreTests {
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    /// A server counting the requests for each path; `/logo.png` answers 404 while `broken` is set.
    private final class LogoServer: Sendable {
        final class State: Sendable {
            let requests = Mutex<[String: Int]>([:])
            let broken = Mutex(false)
        }
        let state = State()
        let server: OriginHTTPServer

        init() async throws {
            let state = self.state
            server = try await OriginHTTPServer.start(port: 0, responder: { _ in
                { request in
                    state.requests.withLock { $0[request.path, default: 0] += 1 }
                    if request.path == "/logo.png", !state.broken.withLock({ $0 }) {
                        return OriginReply(status: 200, contentType: "image/png", body: Data(LogoStoreTests.png))
                    }
                    return OriginReply(status: 404, body: Data("no\n".utf8))
                }
            })
        }

        func breaks(_ broken: Bool) { state.broken.withLock { $0 = broken } }

        func channel(_ number: Int, path: String) -> LineupChannel {
            LineupChannel(number: number, name: "Logo \(number)", url: URL(string: "http://127.0.0.1:\(server.port)/\(number).m3u8")!,
                          logo: URL(string: "http://127.0.0.1:\(server.port)\(path)"))
        }

        func count(_ path: String) -> Int { state.requests.withLock { $0[path] ?? 0 } }
    }

    /// Waits (real time, `seconds` at most) until `condition` holds.
    private func until(seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Asks as the frame loop does, every 10 ms, until the logo is there (nil after `seconds`).
    private func ask(_ store: LogoStore, _ channel: LineupChannel, for seconds: Double = 10) async throws -> [UInt8]? {
        try await until(seconds: seconds) { store.png(for: channel) != nil } ? store.png(for: channel) : nil
    }

    /// Asks every 10 ms for `seconds` of the wall clock (not 100 times a second: on a loaded
    /// machine a 10 ms sleep can take far longer, and a count of them then ran past the test's
    /// minute); nil when the logo never came.
    private func keepAsking(_ store: LogoStore, _ channel: LineupChannel, for seconds: Double) async throws -> [UInt8]? {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        repeat {
            if let png = store.png(for: channel) { return png }
            try await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < end
        return store.png(for: channel)
    }

    @Test func aLogoIsFetchedOnceAndKept() async throws {
        let server = try await LogoServer()
        defer { Task { await server.server.shutdown() } }
        let store = LogoStore(loader: HTTPByteLoader(), say: { _ in })
        let channel = server.channel(1, path: "/logo.png")
        #expect(store.png(for: channel) == nil)  // not here yet: the card draws initials
        #expect(try await ask(store, channel) == Self.png)
        #expect(store.arrived == 1)
        for _ in 0..<50 { #expect(store.png(for: channel) == Self.png) }
        #expect(server.count("/logo.png") == 1, "asked \(server.count("/logo.png")) times for one logo")
        #expect(store.png(for: LineupChannel(number: 2, name: "No logo", url: channel.url)) == nil)
    }

    /// A clock the test moves by hand, so the retry period does not depend on how loaded the machine is.
    private final class HandClock: Sendable {
        private let offset = Mutex(Duration.zero)
        private let start = ContinuousClock.now
        func now() -> ContinuousClock.Instant { start.advanced(by: offset.withLock { $0 }) }
        func advance(_ by: Duration) { offset.withLock { $0 += by } }
    }

    @Test func aFailedLogoIsSaidOnceAndTriedAgainOnlyAfterTheRetryPeriod() async throws {
        let server = try await LogoServer()
        defer { Task { await server.server.shutdown() } }
        server.breaks(true)
        let said = Mutex<[String]>([])
        let clock = HandClock()
        let store = LogoStore(loader: HTTPByteLoader(), retryAfter: .seconds(300), now: { clock.now() }, say: { line in said.withLock { $0.append(line) } })
        let channel = server.channel(3, path: "/logo.png")
        #expect(store.png(for: channel) == nil)
        #expect(try await until { said.withLock { $0.count } == 1 }, "the failed logo was never said")
        // Asked every 10 ms for half a second, 299 s after failing: not fetched again.
        clock.advance(.seconds(299))
        #expect(try await keepAsking(store, channel, for: 0.5) == nil)
        #expect(server.count("/logo.png") == 1, "a failed logo was fetched \(server.count("/logo.png")) times within the retry period")
        // At 300 s it is tried again, fails again (said no more), and waits another 300 s.
        clock.advance(.seconds(1))
        #expect(try await keepAsking(store, channel, for: 0.5) == nil)
        #expect(try await until { server.count("/logo.png") == 2 }, "not tried again after the retry period")
        clock.advance(.seconds(299))
        #expect(try await keepAsking(store, channel, for: 0.5) == nil)
        #expect(server.count("/logo.png") == 2)
        let lines = said.withLock { $0 }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("channel 3's logo http://127.0.0.1:\(server.server.port)/logo.png") == true, "\(lines)")
        #expect(lines.first?.contains("tried again every 300 s") == true, "\(lines)")
        // The origin is back: the logo comes at the next retry and is kept.
        server.breaks(false)
        clock.advance(.seconds(1))
        #expect(try await ask(store, channel) == Self.png)
        #expect(server.count("/logo.png") == 3)
    }
}

extension LogoStoreTests {
    /// A box that starts with its logos' server down shows the copies an earlier run kept,
    /// and fetches each again when the server is back.
    @Test func aKeptCopyStandsInUntilTheLogoCanBeFetchedAgain() async throws {
        let server = try await LogoServer()
        defer { Task { await server.server.shutdown() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-logos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = server.channel(4, path: "/logo.png")
        let earlier = LogoStore(loader: KeptByteLoader(HTTPByteLoader(), directory: folder), say: { _ in })
        #expect(try await ask(earlier, channel) == Self.png)
        #expect(!earlier.showsCopies)
        // The next run, the server down: the kept copy is shown, and said.
        server.breaks(true)
        let clock = HandClock()
        let said = Mutex<[String]>([])
        let store = LogoStore(loader: KeptByteLoader(HTTPByteLoader(), directory: folder), retryAfter: .seconds(300), now: { clock.now() },
                              say: { line in said.withLock { $0.append(line) } })
        #expect(try await ask(store, channel) == Self.png)
        #expect(store.showsCopies)
        #expect(said.withLock { $0 }.first?.contains("the copy kept from an earlier fetch is shown") == true, "\(said.withLock { $0 })")
        // Within the retry period it is not fetched again; after it, with the server back, it is.
        clock.advance(.seconds(299))
        #expect(try await keepAsking(store, channel, for: 0.3) == Self.png)
        #expect(server.count("/logo.png") == 2)
        server.breaks(false)
        clock.advance(.seconds(1))
        #expect(store.png(for: channel) == Self.png)
        #expect(try await until { !store.showsCopies }, "the fetched logo never replaced the copy")
        #expect(server.count("/logo.png") == 3)
    }

    /// The kept copies' folder stays within its bytes: past them the copies written longest ago
    /// go, down to three quarters.
    @Test func keptCopiesStayWithinTheirBytes() async throws {
        struct Hundred: ByteLoader {
            func bytes(_ url: URL, limit: Int) async throws -> [UInt8] { [UInt8](repeating: 7, count: 100) }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-logos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let loader = KeptByteLoader(Hundred(), directory: folder, keptBytes: 350)
        let urls = (1...4).map { URL(string: "http://logos.example/\($0).png")! }
        for (index, url) in urls.enumerated() {
            _ = try await loader.bytes(url, limit: 1000)
            // Three fit; the fourth goes over 350 bytes, and the two oldest go (down to 262).
            #expect((0...index).filter { loader.keptCopy(of: urls[$0], limit: 1000) != nil } == (index < 3 ? Array(0...index) : [2, 3]))
            try await Task.sleep(for: .milliseconds(20))  // distinct modification times
        }
        // A copy larger than the caller's limit is not handed back.
        #expect(loader.keptCopy(of: urls[3], limit: 99) == nil)
    }
}

/// Logos of a big lineup: each at most `logoLimit` bytes, all of them together at most `keptBytes`,
/// the oldest let go first (and fetched again when asked).
@Suite(.timeLimit(.minutes(1)))
struct LogoStoreBoundTests {
    @Test func logosAreBoundedOneByOneAndTogether() async throws {
        let size = 200 << 10
        let server = try await OriginHTTPServer.start(port: 0, responder: { _ in
            { request in
                let bytes = request.path == "/huge.png" ? LogoStore.logoLimit + 1 : size
                return OriginReply(status: 200, contentType: "image/png", body: Data(repeating: 0x89, count: bytes))
            }
        })
        defer { Task { await server.shutdown() } }
        func channel(_ number: Int, _ path: String) -> LineupChannel {
            LineupChannel(number: number, name: "L\(number)", url: URL(string: "http://127.0.0.1:\(server.port)/x.m3u8")!,
                          logo: URL(string: "http://127.0.0.1:\(server.port)\(path)"))
        }
        let said = Mutex<[String]>([])
        let store = LogoStore(loader: HTTPByteLoader(), say: { line in said.withLock { $0.append(line) } })
        let count = LogoStore.keptBytes / size + 20
        for number in 1...count { _ = store.png(for: channel(number, "/\(number).png")) }
        _ = store.png(for: channel(0, "/huge.png"))
        for _ in 0..<1000 where store.arrived < count || said.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.arrived == count)
        let kept = (1...count).filter { store.png(for: channel($0, "/\($0).png")) != nil }
        #expect(kept.count * size <= LogoStore.keptBytes && kept.count >= LogoStore.keptBytes / size - 1, "\(kept.count) kept")
        #expect(said.withLock { $0 }.contains { $0.contains("huge.png") && $0.contains("larger than") }, "\(said.withLock { $0 })")
    }
}
