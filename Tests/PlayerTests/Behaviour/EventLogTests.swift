import Foundation
import Testing
import ZapperCore
@testable import ZapperPlayer

/// The event log keeps in memory only what a script's `wait-event` can look for.
struct EventLogTests {
    @Test func withNoScriptNoEventIsKeptInMemory() throws {
        let log = try EventLog(path: nil, keeping: 0)
        let mark = log.count
        for number in 1...100 { log.emit(.audioStarted(channel: number)) }
        #expect(log.count == mark + 100)
        #expect(log.events.isEmpty)
        #expect(log.first(PlayerEvent.audioStarted(channel: 1).name.rawValue, after: mark) == nil)
    }

    @Test func aScriptFindsTheNewestAmongABoundedFew() throws {
        let log = try EventLog(path: nil, keeping: 4)
        for number in 1...100 { log.emit(.audioStarted(channel: number)) }
        #expect(log.events.count <= 8 && log.events.count >= 4, "\(log.events.count) kept")
        let mark = log.count
        log.emit(.interstitialShown(channel: 7))
        let found = try #require(log.first(PlayerEvent.interstitialShown(channel: 7).name.rawValue, after: mark))
        #expect(found.fields.contains { $0.0 == "channel" })
        #expect(log.count == 101)
    }
}
