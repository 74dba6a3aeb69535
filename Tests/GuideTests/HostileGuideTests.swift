import Foundation
import Testing
import ZapperCore
@testable import ZapperGuide

/// Guides as an attacker writes them: every text, list and count is bounded
/// (GuideLimits), so one hostile guide cannot fill the box's memory, and the
/// rest of the guide is still read.
@Suite struct HostileGuideTests {
    func programme(_ channel: String, start: String, stop: String, body: String) -> String {
        "<programme channel=\"\(channel)\" start=\"\(start) +0000\" stop=\"\(stop) +0000\">\(body)</programme>"
    }

    @Test func textsAndListsAreCut() throws {
        let description = String(repeating: "A", count: 1_000_000)
        let categories = (0..<100).map { "<category>c\($0)</category>" }.joined()
        let titles = (0..<50).map { "<title lang=\"x\($0)\">t\($0)</title>" }.joined()
        let names = (0..<40).map { "<display-name>n\($0)</display-name>" }.joined()
        let text = "<tv><channel id=\"a\">\(names)</channel>"
            + programme("a", start: "20261121060000", stop: "20261121063000",
                        body: "\(titles)<desc><![CDATA[\(description)]]></desc>\(categories)<rating><value>PG</value></rating>")
            + programme("a", start: "20261121063000", stop: "20261121070000", body: "<title>Next</title>") + "</tv>"
        let document = try readGuide(text, chunkSize: 4096)
        let shown = document.guide.programmes(channelID: "a")
        #expect(shown.count == 2)
        #expect(shown.first?.description?.count == GuideLimits.textCharacters)
        #expect(shown.first?.categories.count == GuideLimits.textsPerElement)
        #expect(shown.last?.title == "Next")
        #expect(document.guide.channels["a"]?.displayNames.count == GuideLimits.textsPerElement)
    }

    @Test func programmesPerChannelAndProblemsAreBounded() throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        var programmes: [String] = []
        for minute in 0..<(GuideLimits.programmesPerChannel + 500) {
            let from = XMLTVTime.format(seconds: Int64(start.timeIntervalSince1970) + Int64(minute) * 60)
            let to = XMLTVTime.format(seconds: Int64(start.timeIntervalSince1970) + Int64(minute + 1) * 60)
            programmes.append(programme("busy", start: String(from.prefix(14)), stop: String(to.prefix(14)), body: "<title>m</title>"))
        }
        // Bad start times, each quoting a long value: problems are kept to a bound, each short.
        let long = String(repeating: "9", count: 10_000)
        programmes += (0..<300).map { _ in "<programme channel=\"bad\" start=\"\(long)\"><title>x</title></programme>" }
        programmes.append(programme("calm", start: "20261121060000", stop: "20261121063000", body: "<title>Calm</title>"))
        let document = try readGuide("<tv>" + programmes.joined() + "</tv>")
        #expect(document.guide.programmes(channelID: "busy").count == GuideLimits.programmesPerChannel)
        #expect(document.counts.overChannelLimit == 500)
        #expect(document.guide.programmes(channelID: "calm").first?.title == "Calm")
        #expect(document.problems.count == GuideLimits.problems)
        #expect(document.counts.problemsDropped > 0)
        #expect(document.problems.allSatisfy { $0.message.count < 400 })
        #expect(document.problems.contains { $0.message.contains("more than \(GuideLimits.programmesPerChannel) programmes") })
    }

    /// A gzip bomb: the XML read is counted after decompression, and reading stops past the limit.
    @Test func decompressedBytesAreCapped() throws {
        let xml = Array(("<tv>" + String(repeating: "<!-- padding -->", count: 100_000) + "</tv>").utf8)
        let compressed = try gzipped(xml)
        #expect(compressed.count < xml.count / 50)
        var pulled = false
        let source = DecompressingSource(limit: 200_000) {
            defer { pulled = true }
            return pulled ? nil : compressed
        }
        var read = 0
        #expect(throws: DecompressingSource.TooLarge.self) {
            while let chunk = try source.next() { read += chunk.count }
        }
        #expect(read <= 200_000)
        // Under the limit the same bytes read whole.
        pulled = false
        let whole = DecompressingSource(limit: xml.count) {
            defer { pulled = true }
            return pulled ? nil : compressed
        }
        var all: [UInt8] = []
        while let chunk = try whole.next() { all += chunk }
        #expect(all == xml)
    }

    /// Invalid UTF-8 in an element or attribute name once ended the process inside Foundation's
    /// XML parser (found by `make fuzz`); now it is repaired and the rest of the guide is read.
    @Test func invalidUTF8InNamesDoesNotTrap() throws {
        let head = "<tv><channel id=\"a\"><display-name>A</display-name></channel>"
        let good = programme("a", start: "20261121060000", stop: "20261121063000", body: "<title>Kept</title>")
        for poison in [[0x3C, 0x78, 0xFF, 0x2F, 0x3E], Array("<x a".utf8) + [0xF5] + Array("=\"1\"/>".utf8)] as [[UInt8]] {
            let bytes = Array(head.utf8) + poison + Array((good + "</tv>").utf8)
            let document = try GuideReader.read(bytes: bytes, source: "bad.xml", chunkSize: 7)
            #expect(document.guide.programmes(channelID: "a").map(\.title) == ["Kept"])
        }
        // A guide in Latin-1 is converted by libxml2, not "repaired".
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\(head)".utf8)
            + Array("<programme channel=\"a\" start=\"20261121060000 +0000\" stop=\"20261121063000 +0000\"><title>Caf".utf8)
            + [0xE9] + Array("</title></programme></tv>".utf8)
        #expect(try GuideReader.read(bytes: latin1, source: "latin1.xml").guide.programmes(channelID: "a").first?.title == "Café")
    }

    /// A processing instruction without data (`<?x?>`) once ended the process inside Foundation's
    /// XML parser, also after a declaration naming a garbage encoding (found by `make fuzz`).
    @Test func processingInstructionsAreIgnored() throws {
        let body = "<?php?><tv><?x?><channel id=\"a\"><display-name>A<?y  ?></display-name></channel>"
            + programme("a", start: "20261121060000", stop: "20261121063000", body: "<title>Kept<?z?></title>") + "</tv><?end?>"
        let document = try readGuide("<?xml version=\"1.0\"?>\n" + body, chunkSize: 3)
        #expect(document.guide.programmes(channelID: "a").map(\.title) == ["Kept"])
        let garbage = Array("<?xml version=\"1.0\" encoding=\"".utf8) + [0xFF, 0xFF, 0xFF, 0x02] + Array("\"?>\n\(body)".utf8)
        #expect(readError(garbage) != nil)
    }

    /// Entities the guide declares itself are expanded each time they are used; an external one
    /// (a file on the box) is never read into the guide.
    @Test func declaredEntitiesExpandAndExternalOnesAreNotLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-secret-\(UUID().uuidString).txt")
        try "the box's secret".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE tv [<!ENTITY show "Tom &amp; Jerry"><!ENTITY leak SYSTEM "\(secret.absoluteString)">]>
            <tv>
            """ + programme("a", start: "20261121060000", stop: "20261121063000", body: "<title>&show;</title>")
            + programme("a", start: "20261121063000", stop: "20261121070000", body: "<title>&show; again</title>")
            + programme("a", start: "20261121070000", stop: "20261121073000", body: "<title>Leak: &leak;</title>") + "</tv>"
        let titles = (try? readGuide(text).guide.programmes(channelID: "a").map(\.title))
            ?? readError(Array(text.utf8))?.partial?.guide.programmes(channelID: "a").map(\.title) ?? []
        #expect(titles.prefix(2) == ["Tom & Jerry", "Tom & Jerry again"])
        #expect(!titles.contains { $0.contains("secret") })
    }
}
