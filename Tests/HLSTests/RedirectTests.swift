import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// Redirects as CDNs and session-token services send them, followed hop by hop
/// under `FetchPolicy`, against the origin's `/moved/` shapes.
extension HLSLiveSessionTests {
    func reason(_ url: String, fetcher: HTTPFetcher = .shared) async -> String? {
        do {
            _ = try await fetcher.text(URL(string: url)!)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The master answers from `/ch/2/` after a 302 from `/moved/2.m3u8`: its relative variant
    /// URIs resolve against the URL that answered, so the session plays (against `/moved/` they 404).
    @Test func aRedirectedMasterResolvesAgainstTheURLThatAnswered() async throws {
        let origin = try OriginProcess.shared.get()
        let base = "http://127.0.0.1:\(origin.port)"
        let fetched = try await HTTPFetcher.shared.document(URL(string: base + "/moved/2.m3u8")!)
        #expect(fetched.url.absoluteString == base + "/ch/2/master.m3u8")
        #expect(fetched.text.hasPrefix("#EXTM3U"))
        // Five hops of 301, 302, 307 and 308 are followed; a sixth is one too many.
        #expect(try await HTTPFetcher.shared.document(URL(string: base + "/moved/hops/4")!).url.path == "/ch/2/master.m3u8")
        #expect(await reason(base + "/moved/hops/5")?.contains("redirects more than 5 times") == true)
        let (session, recorder, consumer) = play(URL(string: base + "/moved/2.m3u8")!)
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("a segment of the redirected master") { recorder.deliveries.withLock { $0.count } >= 1 }
    }

    @Test func badRedirectsFailWithTheirReason() async throws {
        let origin = try OriginProcess.shared.get()
        let base = "http://127.0.0.1:\(origin.port)"
        #expect(await reason(base + "/moved/loop")?.contains("redirects in a loop") == true)
        #expect(await reason(base + "/moved/file")?.contains("redirects to file:///etc/passwd, which uses file:") == true)
        #expect(await reason(base + "/moved/none")?.contains("redirects without a Location") == true)
    }

    /// With private addresses blocked, the origin on 127.0.0.1 is out of reach, by address and by name.
    @Test func privateAddressesCanBeBlocked() async throws {
        let origin = try OriginProcess.shared.get()
        let fetcher = HTTPFetcher()
        fetcher.blocksPrivateAddresses = true
        let numeric = await reason("http://127.0.0.1:\(origin.port)/demo.m3u", fetcher: fetcher)
        let named = await reason("http://localhost:\(origin.port)/demo.m3u", fetcher: fetcher)
        await fetcher.shutdown()
        #expect(numeric?.contains("127.0.0.1 is 127.0.0.1, and local addresses are blocked") == true, "\(numeric ?? "fetched")")
        #expect(named?.contains("localhost is a local name") == true, "\(named ?? "fetched")")
    }

    @Test func redirectHopsFollowThePolicy() throws {
        let https = URL(string: "https://cdn.example/live/master.m3u8")!
        func next(_ location: String?, from: URL = https, visited: [URL] = []) -> Result<URL, URLRejection> {
            FetchPolicy.redirect(from: from, location: location, visited: visited.isEmpty ? [from] : visited)
        }
        #expect(try next("../token/abc/master.m3u8").get().absoluteString == "https://cdn.example/token/abc/master.m3u8")
        #expect(try next("https://edge.example/x.m3u8").get().host == "edge.example")
        guard case .failure(let downgrade) = next("http://edge.example/x.m3u8") else { Issue.record("https to http followed"); return }
        #expect(downgrade.reason == "redirects from https to http (http://edge.example/x.m3u8): refused")
        #expect(try next("https://edge.example/x.m3u8", from: URL(string: "http://cdn.example/")!).get().scheme == "https")
        for location in ["file:///etc/passwd", "rtsp://cam/1", "javascript:alert(1)", "", "   ", nil] {
            guard case .failure = next(location) else { Issue.record("\(location ?? "nil") followed"); continue }
        }
        let six = (0...5).map { URL(string: "https://cdn.example/\($0)")! }
        guard case .failure(let tooMany) = next("/7", visited: six) else { Issue.record("a seventh hop"); return }
        #expect(tooMany.reason == "redirects more than 5 times")
    }

    @Test func localAddressesAreKnown() {
        let local: [[UInt8]] = [[127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1],
                                [169, 254, 169, 254], [0, 0, 0, 0], [100, 64, 0, 1], [224, 0, 0, 1], [255, 255, 255, 255],
                                Array(repeating: 0, count: 15) + [1], Array(repeating: 0, count: 16),
                                [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1], [0xFD, 0x12] + Array(repeating: 0, count: 14),
                                Array(repeating: 0, count: 10) + [0xFF, 0xFF, 192, 168, 0, 1], [0x20, 0x02, 10, 0, 0, 1] + Array(repeating: 0, count: 10),
                                [0xFF, 0x02] + Array(repeating: 0, count: 14), [1, 2, 3]]
        let global: [[UInt8]] = [[8, 8, 8, 8], [172, 32, 0, 1], [100, 128, 0, 1], [193, 168, 1, 1],
                                 [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12),
                                 Array(repeating: 0, count: 10) + [0xFF, 0xFF, 8, 8, 4, 4]]
        for address in local { #expect(FetchPolicy.isLocal(address: address), "\(address)") }
        for address in global { #expect(!FetchPolicy.isLocal(address: address), "\(address)") }
        #expect(FetchPolicy.isLocalName("LOCALHOST.") && FetchPolicy.isLocalName("box.local") && !FetchPolicy.isLocalName("example.net"))
    }
}
