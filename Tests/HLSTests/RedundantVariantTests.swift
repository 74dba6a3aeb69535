import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// `/shapes/redundant/` lists its variant twice, the first copy on a host that is
/// down (its playlist, or only its segments): the session takes the backup at once,
/// and the viewer hears of no failure.
extension HLSLiveSessionTests {
    @Test(arguments: [("redundant/master.m3u8", "index.m3u8"), ("redundant/segments.m3u8", ".ts")])
    func aRedundantVariantFailsOverToItsBackupUnheard(master: String, failed: String) async throws {
        let origin = try OriginProcess.shared.get()
        let (session, recorder, consumer) = play(shapesURL(origin, master))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("two segments", seconds: 30) { recorder.deliveries.withLock { $0.count } >= 2 }
        let events = recorder.events.withLock { $0 }
        let backups = events.compactMap { event -> (Int, String)? in
            if case let .backupChosen(index, url, _) = event { (index, url) } else { nil }
        }
        #expect(backups.count == 1 && backups.first?.0 == 1, "\(events.map(\.line))")
        #expect(backups.first.map { $0.1.contains("/shapes/dead/") && $0.1.hasSuffix(failed) } == true, "\(backups)")
        #expect(events.compactMap(\.failure).isEmpty, "nothing the viewer would hear of: \(events.map(\.line))")
        #expect(failures(recorder).isEmpty)
        #expect(recorder.deliveries.withLock { $0 }.allSatisfy { $0.variant == 1 })
    }
}
