import Foundation
import Testing
import ZapperCore
@testable import ZapperGuide

/// The chunked reader, as a download feeds it.
@Suite struct GuideFeedTests {
    @Test func chunksFromADownloadMakeTheSameGuide() async throws {
        let bytes = Array(grabberShapedGuide.utf8)
        let reader = GuideReader(source: "http://guide.example/epg.xml")
        var offset = 0
        for size in [1, 2, 50, 3, 700, 9999] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            try await reader.feed(Array(bytes[offset..<end]))
            offset = end
        }
        let document = try await reader.finish()
        #expect(document.guide == (try readGuide(grabberShapedGuide)).guide)
        #expect(document.bytes == bytes.count)
    }

    @Test func gzippedChunks() async throws {
        let compressed = try gzipped(Array(originShapedGuide.utf8))
        let reader = GuideReader(source: "http://guide.example/epg.xml.gz")
        for start in stride(from: 0, to: compressed.count, by: 17) {
            try await reader.feed(Array(compressed[start..<min(compressed.count, start + 17)]))
        }
        #expect(try await reader.finish().guide.programmeCount == 3)
    }

    @Test func aBrokenDownloadStopsEarlyWithItsLine() async throws {
        // A bad tag on line 2, then a lot more: feed throws once the parser has
        // failed, so the download can stop instead of fetching the rest.
        let reader = GuideReader(source: "http://guide.example/epg.xml", queueLimit: 4096)
        var fedAfterError = 0
        var thrown: GuideReadError?
        do {
            // This very feed may throw already, if the parser is quick.
            try await reader.feed(Array("<tv>\n<programme></oops>\n".utf8))
            for _ in 0..<100_000 {
                try await reader.feed(Array(repeating: 0x20, count: 1024))
                fedAfterError += 1
            }
        } catch {
            thrown = error
        }
        #expect(thrown?.line == 2)
        #expect(fedAfterError < 100_000)
        await #expect(throws: GuideReadError.self) { try await reader.finish() }
    }

    @Test func finishWithNothingFedIsAnEmptyGuideError() async {
        let reader = GuideReader(source: "empty")
        do {
            _ = try await reader.finish()
            Issue.record("an empty download read as a guide")
        } catch {
            #expect(error.message == "the guide is empty")
        }
    }

    @Test func cancelEndsTheRead() async throws {
        let reader = GuideReader(source: "http://guide.example/epg.xml")
        try await reader.feed(Array("<tv>\n<programme start=\"20261121060000\" channel=\"a\">".utf8))
        reader.cancel()
        do {
            _ = try await reader.finish()
            Issue.record("a cancelled read finished")
        } catch {
            #expect(error.message == "reading was cancelled")
        }
    }

    /// A feeder faster than the parser waits: the queue never holds much more than its limit.
    @Test func aFastFeederWaitsForTheParser() async throws {
        let limit = 64 * 1024
        // A window years away: nothing is kept, so this test takes little memory.
        let reader = GuideReader(source: "fast", options: .init(window: GuideWindow(now: utcDate(2030, 1, 1))),
                                 queueLimit: limit)
        let programme = Array("<programme start=\"20261121060000\" stop=\"20261121070000\" channel=\"a\"><title>x</title></programme>\n".utf8)
        try await reader.feed(Array("<tv>\n".utf8))
        let chunk = Array((0..<200).map { _ in programme }.joined())
        for _ in 0..<200 {
            try await reader.feed(chunk)
            #expect(reader.queuedBytes <= limit)
        }
        try await reader.feed(Array("</tv>\n".utf8))
        let document = try await reader.finish()
        #expect(document.counts.read == 40_000 && document.guide.isEmpty)
    }
}
