import Foundation
import Testing
import ZapperCore
@testable import ZapperGuide

@Suite struct XMLTVReaderTests {
    @Test func readsTheDemoOriginsShape() throws {
        let document = try readGuide(originShapedGuide)
        #expect(document.problems.isEmpty)
        let guide = document.guide
        #expect(guide.channelIDs == ["green.zapper", "red.zapper"])
        #expect(guide.channels["red.zapper"]?.displayNames == ["Red One", "1"])
        #expect(guide.channels["red.zapper"]?.icon?.absoluteString == "http://127.0.0.1:8600/logos/1.png")
        let now = try #require(guide.now(channelID: "red.zapper", at: utcDate(2026, 11, 21, 6, 10)))
        #expect(now.title == "World Report" && now.subTitle == "Episode 12")
        #expect(now.description == "Headlines from around the world, on the hour. On Red One.")
        #expect(now.rating == ProgrammeRating(system: "VCHIP", value: "TV-G"))
        #expect(now.start == utcDate(2026, 11, 21, 6, 0) && now.stop == utcDate(2026, 11, 21, 6, 30))
        #expect(guide.next(channelID: "red.zapper", after: utcDate(2026, 11, 21, 6, 10))?.title == "Business Today")
        #expect(guide.now(channelID: "green.zapper", at: utcDate(2026, 11, 21, 6, 29))?.rating?.value == "TV-MA")
        #expect(document.counts.read == 3)
    }

    @Test func matchesTheDemoLineupByTvgID() throws {
        let url = repositoryRoot.appendingPathComponent("channels/demo.m3u")
        let lineup = M3UPlusParser.parse(try String(contentsOf: url, encoding: .utf8), source: url.path)
        let ids = Set(lineup.channels.compactMap(\.guideID))
        let document = try readGuide(originShapedGuide, options: .init(channelIDs: ids))
        let red = try #require(lineup.channels.first { $0.guideID == "red.zapper" })
        #expect(document.guide.now(channelID: red.guideID!, at: utcDate(2026, 11, 21, 6, 45))?.title == "Business Today")
        #expect(Set(document.guide.channelIDs).isSubset(of: ids))
    }

    @Test func readsWhatGrabbersWrite() throws {
        let document = try readGuide(grabberShapedGuide)
        #expect(document.problems.isEmpty)
        let list = document.guide.programmes(channelID: "svt1.svt.se")
        #expect(list.count == 2)
        // No preference: the first language given.
        let first = list[0]
        #expect(first.title == "Morgonstudion" && first.subTitle == "Del 3 av 8")
        #expect(first.description == "Nyheter & väder från hela landet.")
        #expect(first.categories == ["Nyheter"])
        #expect(first.ratings == [ProgrammeRating(system: "VCHIP", value: "TV-14"),
                                  ProgrammeRating(system: "FSK", value: "12"), ProgrammeRating(value: "PG")])
        #expect(first.start == utcDate(2026, 11, 21, 5, 30) && first.stop == utcDate(2026, 11, 21, 6, 15))
        #expect(document.guide.channels["svt1.svt.se"]?.displayNames == ["SVT1", "SVT 1"])
        // CDATA and mixed text.
        #expect(list[1].title == "Film: Rock & Roll <Live>")
        #expect(list[1].description == "A concert film & more <b>bold</b>.")
        #expect(list[1].subTitle == nil && list[1].ratings.isEmpty && list[1].categories.isEmpty)
    }

    @Test func prefersTheConfiguredLanguage() throws {
        let document = try readGuide(grabberShapedGuide, options: .init(preferredLanguages: ["de", "EN"]))
        let first = try #require(document.guide.programmes(channelID: "svt1.svt.se").first)
        #expect(first.title == "Morning Studio" && first.subTitle == "Part 3 of 8")
        #expect(first.description == "News & weather \u{2014} from the whole country <live>.")
        #expect(first.categories == ["News", "Current affairs"])
    }

    @Test func aMissingStopEndsAtTheNextStart() throws {
        let text = """
            <tv>
            <programme start="20261121060000" channel="a"><title>One</title></programme>
            <programme start="20261121070000" channel="a"><title>Two</title></programme>
            <programme start="20261121063000" channel="a" stop=""><title>Half</title></programme>
            <programme start="20261121080000" stop="20261121090000" channel="a"><title>Three</title></programme>
            <programme start="20261121100000" channel="a"><title>Last, end unknown</title></programme>
            </tv>
            """
        let document = try readGuide(text)
        let list = document.guide.programmes(channelID: "a")
        #expect(list.map(\.title) == ["One", "Half", "Two", "Three"])
        #expect(list.map(\.stop) == [utcDate(2026, 11, 21, 6, 30), utcDate(2026, 11, 21, 7), utcDate(2026, 11, 21, 8),
                                     utcDate(2026, 11, 21, 9)])
        #expect(document.counts.unknownEnd == 1)
        // The empty stop is reported with its line.
        #expect(document.problems.map(\.line) == [4])
    }

    @Test func readsCRLFAndAByteOrderMark() throws {
        let text = "\u{FEFF}" + originShapedGuide.replacingOccurrences(of: "\n", with: "\r\n")
            .replacingOccurrences(of: "Business Today", with: "Business\r\nToday")
        let document = try readGuide(text)
        #expect(document.guide.programmeCount == 3)
        // XML turns CRLF inside text into LF.
        #expect(document.guide.programmes(channelID: "red.zapper")[1].title == "Business\nToday")
        let broken = text.replacingOccurrences(of: "start=\"20261121063000 +0000\" stop", with: "start=\"soon\" stop")
        let problems = try readGuide(broken).problems
        #expect(problems.map(\.line) == [20])
        #expect(problems.first?.description == "test.xml:20: programme start \"soon\" is not an XMLTV time")
    }

    @Test func readsLatin1AndWindows1252() throws {
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<tv><programme start=\"20261121060000\" stop=\"20261121070000\" channel=\"ch\"><title>Caf".utf8)
            + [0xE9, 0x20, 0x26] + Array("amp; cr".utf8) + [0xE8] + Array("me</title></programme></tv>".utf8)
        let document = try GuideReader.read(bytes: latin1, source: "latin1.xml", chunkSize: 7)
        #expect(document.guide.programmes(channelID: "ch").first?.title == "Café & crème")

        let cp1252: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><tv><programme start=\"20261121060000\" stop=\"20261121070000\" channel=\"ch\"><title>".utf8)
            + [0x80, 0x20, 0x93, 0x71, 0x94] + Array("</title></programme></tv>".utf8)
        let euro = try GuideReader.read(bytes: cp1252, source: "cp1252.xml")
        #expect(euro.guide.programmes(channelID: "ch").first?.title == "€ “q”")
    }

    @Test func readsUTF16WithItsByteOrderMark() throws {
        let text = originShapedGuide.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
            .replacingOccurrences(of: "World Report", with: "Wörld Repört ✓")
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let document = try GuideReader.read(bytes: bytes, source: "utf16.xml", chunkSize: 5)
        #expect(document.guide.programmes(channelID: "red.zapper").first?.title == "Wörld Repört ✓")
    }

    @Test func placesEveryTimeZoneOnOneTimeline() throws {
        // The same channel written with different offsets, across a DST change (CEST → CET).
        let text = """
            <tv>
            <programme start="20261025013000 +0200" stop="20261025020000 +0200" channel="de"><title>A</title></programme>
            <programme start="20261025020000 +0200" stop="20261025020000 +0100" channel="de"><title>B</title></programme>
            <programme start="20261025020000 +0100" stop="20261024230000 -0300" channel="de"><title>C</title></programme>
            <programme start="20261025020000" stop="202610250230 Z" channel="de"><title>D</title></programme>
            </tv>
            """
        let list = try readGuide(text).guide.programmes(channelID: "de")
        #expect(list.map(\.title) == ["A", "B", "C", "D"])
        #expect(list.map(\.start) == [utcDate(2026, 10, 24, 23, 30), utcDate(2026, 10, 25, 0), utcDate(2026, 10, 25, 1),
                                      utcDate(2026, 10, 25, 2)])
        #expect(list.map(\.duration) == [1800, 3600, 3600, 1800])
    }

    @Test func entitiesInTextAndAttributes() throws {
        let text = """
            <tv><channel id="a&amp;b"><display-name>A &amp; B &#169; &#x263A;</display-name></channel>
            <programme start="20261121060000" stop="20261121070000" channel="a&amp;b"><title>&quot;Q&quot; &apos;s&apos; &lt;&gt;</title></programme></tv>
            """
        let document = try readGuide(text, chunkSize: 3)
        #expect(document.guide.channels["a&b"]?.displayNames == ["A & B © ☺"])
        #expect(document.guide.programmes(channelID: "a&b").first?.title == "\"Q\" 's' <>")
    }

    @Test func skipsProgrammesWithMissingFieldsAndSaysWhere() throws {
        let text = """
            <tv>
            <programme start="20261121060000" stop="20261121070000"><title>No channel</title></programme>
            <programme stop="20261121070000" channel="a"><title>No start</title></programme>
            <programme start="20261121080000" stop="20261121070000" channel="a"><title>Backwards</title></programme>
            <programme start="20261121090000" stop="20261121100000" channel="a"></programme>
            <channel><display-name>No id</display-name></channel>
            </tv>
            """
        let document = try readGuide(text)
        #expect(document.problems.map(\.line) == [2, 3, 4, 6])
        let list = document.guide.programmes(channelID: "a")
        // "Backwards" ends where the next starts; a programme without a title still fills its slot.
        #expect(list.map(\.title) == ["Backwards", ""])
        #expect(list[0].stop == utcDate(2026, 11, 21, 9))
    }

    @Test func keepsOnlyTheWindowAndTheLineupsChannels() throws {
        let window = GuideWindow(now: utcDate(2026, 11, 21, 6, 15), past: 3600, ahead: 3600)
        let document = try readGuide(originShapedGuide + "", options: .init(window: window, channelIDs: ["red.zapper"]))
        #expect(document.guide.channelIDs == ["red.zapper"])
        #expect(document.counts.otherChannels == 1)
        let narrow = GuideWindow(now: utcDate(2026, 11, 21, 7, 45), past: 3600, ahead: 3600)
        let later = try readGuide(originShapedGuide, options: .init(window: narrow))
        #expect(later.guide.programmes(channelID: "red.zapper").map(\.title) == ["Business Today"])
        #expect(later.guide.programmes(channelID: "green.zapper").isEmpty)
    }

    @Test func chunkBoundariesDoNotMatter() throws {
        let whole = try readGuide(grabberShapedGuide, options: .init(preferredLanguages: ["en"]))
        for size in [1, 2, 3, 5, 7, 64, 1000] {
            let chunked = try readGuide(grabberShapedGuide, options: .init(preferredLanguages: ["en"]), chunkSize: size)
            #expect(chunked.guide == whole.guide, "chunk size \(size)")
        }
    }

    @Test func readsAFileAndAGzippedFile() throws {
        let plain = try temporaryFile("guide.xml", Array(grabberShapedGuide.utf8))
        defer { try? FileManager.default.removeItem(at: plain.deletingLastPathComponent()) }
        let fromFile = try GuideReader.read(path: plain.path)
        #expect(fromFile.guide.programmeCount == 2 && fromFile.bytes == grabberShapedGuide.utf8.count)

        let compressed = try gzipped(Array(grabberShapedGuide.utf8))
        #expect(compressed.prefix(2) == [0x1F, 0x8B])
        let gz = try temporaryFile("guide.xml.gz", compressed)
        defer { try? FileManager.default.removeItem(at: gz.deletingLastPathComponent()) }
        let fromGzip = try GuideReader.read(path: gz.path)
        #expect(fromGzip.guide == fromFile.guide && fromGzip.bytes == fromFile.bytes)

        // Told by the magic bytes, not the name; fed one byte at a time.
        let tiny = try GuideReader.read(bytes: compressed, source: "guide", chunkSize: 1)
        #expect(tiny.guide == fromFile.guide)
    }

    @Test func readsConcatenatedGzipMembers() throws {
        // `cat a.gz b.gz`: one stream of both parts.
        let text = Array(originShapedGuide.utf8)
        let split = text.count / 2
        let joined = try gzipped(Array(text[..<split])) + gzipped(Array(text[split...]))
        let document = try GuideReader.read(bytes: joined, source: "joined.gz", chunkSize: 100)
        #expect(document.guide == (try readGuide(originShapedGuide)).guide)
    }
}
