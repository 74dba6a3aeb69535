import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// A failed fetch says what kind of failure it was, from the status or the
/// client's error type, so the card's words never depend on an error's text.
extension HLSLiveSessionTests {
    @Test func aFailedFetchSaysItsKind() async throws {
        let origin = try OriginProcess.shared.get()
        func kind(_ url: String) async -> PlaybackFailure.Kind? {
            do {
                _ = try await HTTPFetcher.shared.text(URL(string: url)!, seconds: 5)
                return nil
            } catch {
                return PlaybackFailure(error).kind
            }
        }
        #expect(await kind("http://127.0.0.1:\(origin.port)/ch/999/master.m3u8") == .http(status: 404))
        // Port 1 on loopback: nothing listens, the connection is refused.
        #expect(await kind("http://127.0.0.1:1/x.m3u8") == .unreachable)
        #expect(await kind("ftp://127.0.0.1/x.m3u8") == .refused)
        #expect(await kind("http://127.0.0.1:\(origin.port)/moved/loop") == .refused)
    }
}
