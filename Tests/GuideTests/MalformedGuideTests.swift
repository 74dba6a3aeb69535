import Foundation
import Testing
import ZapperCore
@testable import ZapperGuide

@Suite struct MalformedGuideTests {
    @Test func aMismatchedTagNamesTheLineAndKeepsWhatCameBefore() throws {
        let text = """
            <tv>
            <programme start="20261121060000" stop="20261121070000" channel="a"><title>Good</title></programme>
            <programme start="20261121070000" stop="20261121080000" channel="a">
              <title>Broken</titel>
            </programme>
            <programme start="20261121080000" stop="20261121090000" channel="a"><title>After</title></programme>
            </tv>
            """
        let error = try #require(readError(Array(text.utf8), source: "http://guide.example/epg.xml"))
        #expect(error.line == 4)
        #expect(error.message == "an end tag does not match its start tag")
        #expect(error.description.hasPrefix("http://guide.example/epg.xml:4:"))
        #expect(error.partial?.guide.programmes(channelID: "a").map(\.title) == ["Good"])
    }

    @Test func aTruncatedDownloadIsAnError() throws {
        let text = Array(originShapedGuide.utf8)
        let cut = Array(text[..<(text.count * 3 / 4)])
        let error = try #require(readError(cut, source: "cut.xml"))
        #expect(error.message == "the document ends before </tv> (truncated?)")
        #expect(error.line > 20)
        // The programmes complete before the cut are there for a caller that has nothing better.
        let complete = String(decoding: cut, as: UTF8.self).components(separatedBy: "</programme>").count - 1
        #expect(complete >= 1 && error.partial?.guide.programmeCount == complete)
    }

    @Test func anHTMLEntityIsAnErrorWithItsLine() throws {
        let text = """
            <tv>
            <programme start="20261121060000" stop="20261121070000" channel="a">
            <title>Tom&nbsp;and Jerry</title></programme>
            </tv>
            """
        let error = try #require(readError(Array(text.utf8)))
        #expect(error.line == 3)
        #expect(error.message.contains("entity"))
    }

    @Test func anErrorPageIsNotAGuide() throws {
        let error = try #require(readError(Array("<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>".utf8)))
        #expect(error.message == "not an XMLTV guide: the root element is <html>, not <tv>")
        let json = try #require(readError(Array("{\"error\": \"not found\"}".utf8)))
        #expect(json.line == 1)
        #expect(readError([])?.message == "the guide is empty")
        #expect(readError(Array("   \n".utf8)) != nil)
    }

    @Test func anEntityBombIsRefused() throws {
        // "Billion laughs": ten levels of ten-fold entities; libxml2's limits stop it.
        var entities = "<!ENTITY a0 \"hahahahahahahahahaha\">"
        for level in 1..<10 {
            entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE tv [\(entities)]>\n<tv><programme start=\"20261121060000\" "
            + "stop=\"20261121070000\" channel=\"a\"><title>&a9;</title></programme></tv>\n"
        let error = try #require(readError(Array(text.utf8)))
        #expect(error.line == 3)
        #expect(error.partial?.guide.isEmpty == true)
    }

    @Test func contentAfterTheRootIsAnError() throws {
        let error = try #require(readError(Array("<tv></tv>\n<tv></tv>".utf8)))
        #expect(error.line == 2)
    }

    @Test func aMissingFileNamesTheFile() {
        #expect(throws: GuideReadError.self) { try GuideReader.read(path: "/nonexistent/guide.xml") }
        do {
            _ = try GuideReader.read(path: "/nonexistent/guide.xml")
        } catch {
            #expect(error.description == "/nonexistent/guide.xml: cannot open the guide: No such file or directory")
        }
    }

    @Test func badGzipIsAnError() throws {
        let good = try gzipped(Array(originShapedGuide.utf8))
        var corrupt = good
        for index in 20..<60 { corrupt[index] ^= 0x5A }
        let error = try #require(readError(corrupt, source: "guide.xml.gz"))
        #expect(error.line == 0 && error.message.hasPrefix("gzip: "))

        let truncated = Array(good[..<(good.count - 12)])
        let cut = try #require(readError(truncated, source: "guide.xml.gz"))
        #expect(cut.message.hasPrefix("gzip: the compressed data ends early (truncated file?)"))
        #expect(readError([0x1F, 0x8B])?.message.hasPrefix("gzip: ") == true)
    }
}
