import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

/// EXT-X-DEFINE (RFC 8216bis §4.4.2.3) and variable substitution (§4.3): NAME
/// and VALUE, IMPORT from the master playlist, QUERYPARAM from the playlist's
/// own URL; every misuse fails the playlist with its line.
@Suite struct HLSVariableTests {
    let masterURL = URL(string: "https://portal.example/tv/master.m3u8?token=s3cr%2Ft&region=eu")!
    let mediaURL = URL(string: "https://cdn.example/tv/720p/index.m3u8?token=abc123")!

    func parse(_ text: String, url: URL? = nil, imports: HLSVariables? = nil) throws -> HLSPlaylist {
        try HLSParser.parse(text, url: url ?? mediaURL, masterVariables: imports)
    }

    func refusal(_ text: String, url: URL? = nil, imports: HLSVariables? = nil) -> HLSParseError? {
        do {
            _ = try parse(text, url: url, imports: imports)
            return nil
        } catch {
            return error as? HLSParseError
        }
    }

    func variables(_ pairs: KeyValuePairs<String, String>) throws -> HLSVariables {
        var variables = HLSVariables()
        for (name, value) in pairs {
            try variables.define(HLSAttributeList(Substring("NAME=\"\(name)\",VALUE=\"\(value)\"")), url: mediaURL, imports: nil)
        }
        return variables
    }

    @Test func aMasterSubstitutesInURILinesAndQuotedAttributes() throws {
        guard case .master(let master) = try parse("""
            #EXTM3U
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-DEFINE:NAME="cdn",VALUE="https://edge.example/tv"
            #EXT-X-DEFINE:NAME="lang",VALUE="en"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="{$lang}",NAME="Sub {$lang}",URI="{$cdn}/subs/{$lang}.m3u8?t={$token}"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",SUBTITLES="subs"
            {$cdn}/720p/index.m3u8?token={$token}
            """, url: masterURL) else { Issue.record("not a master playlist"); return }
        // QUERYPARAM's value is percent-decoded ("s3cr/t"); a URI line takes it as it is.
        #expect(master.variables["token"] == "s3cr/t")
        #expect(master.variables["cdn"] == "https://edge.example/tv" && master.variables["lang"] == "en")
        #expect(master.variants[0].uri.absoluteString == "https://edge.example/tv/720p/index.m3u8?token=s3cr/t")
        let subtitles = master.renditions[0]
        #expect(subtitles.language == "en" && subtitles.name == "Sub en")
        #expect(subtitles.uri?.absoluteString == "https://edge.example/tv/subs/en.m3u8?t=s3cr/t")
    }

    @Test func aMediaPlaylistImportsQueriesAndDefines() throws {
        let imports = try variables(["cdn": "https://cdn.example/tv", "keys": "https://keys.example"])
        guard case .media(let media) = try parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-DEFINE:IMPORT="cdn"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-DEFINE:NAME="rendition",VALUE="720p"
            #EXT-X-DEFINE:NAME="iv",VALUE="000102030405060708090a0b0c0d0e0f"
            #EXT-X-DEFINE:IMPORT="keys"
            #EXT-X-KEY:METHOD=AES-128,URI="{$keys}/k/1.key?token={$token}",IV=0x{$iv}
            #EXT-X-MAP:URI="{$cdn}/{$rendition}/init.mp4"
            #EXT-X-GAP
            #EXTINF:2,
            {$cdn}/{$rendition}/1.m4s?token={$token}
            #EXTINF:2,
            {$rendition}/2.m4s
            """, imports: imports) else { Issue.record("not a media playlist"); return }
        #expect(media.segments.map(\.uri.absoluteString) == ["https://cdn.example/tv/720p/1.m4s?token=abc123",
                                                             "https://cdn.example/tv/720p/720p/2.m4s"])
        #expect(media.segments[0].key?.uri?.absoluteString == "https://keys.example/k/1.key?token=abc123")
        #expect(media.segments[0].key?.iv == (0...15).map(UInt8.init))
        #expect(media.segments.map(\.gap) == [true, false])
        #expect(media.segments[0].initSection?.uri.absoluteString == "https://cdn.example/tv/720p/init.mp4")
    }

    /// A reference's value goes in as it is: `{$a}` in a value stays, and a `{$`
    /// that opens no reference (`{$}`, `{$a b}`) is text.
    @Test func substitutionDoesNotRecurseAndLeavesNonReferencesAlone() throws {
        var budget = HLSLimits.substitutedLine
        let variables = try variables(["a": "{$a}{$a}", "b": "x"])
        #expect(try variables.substitute("[{$a}] {$} {$a b} {$b} {$b", budget: &budget) == "[{$a}{$a}] {$} {$a b} x {$b")
        budget = HLSLimits.substitutedLine
        #expect(try variables.substitute("no references", budget: &budget) == "no references")
        #expect(budget == HLSLimits.substitutedLine)
    }

    @Test func queryParametersComeFromTheURLGiven() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n#EXTINF:2,\ns.ts?t={$t}\n"
        // The session passes the URL that finally answered (after redirects): its query counts.
        let answered = URL(string: "https://edge.example/a/index.m3u8?x=1&t=after-redirect&t=second")!
        guard case .media(let media) = try parse(text, url: answered) else { Issue.record("not media"); return }
        #expect(media.segments[0].uri.absoluteString == "https://edge.example/a/s.ts?t=after-redirect")
        let error = try #require(refusal(text, url: URL(string: "https://edge.example/a/index.m3u8?t=")!))
        #expect(error.line == 3 && error.reason.contains("no query parameter t"))
    }

    /// Every misuse fails that playlist, at the line that holds it.
    @Test(arguments: [
        ("#EXTINF:2,\n{$missing}/s.ts", 5, "{$missing} refers to no variable"),
        ("#EXT-X-KEY:METHOD=AES-128,URI=\"{$nokey}\"\n#EXTINF:2,\ns.ts", 4, "{$nokey} refers to no variable"),
        ("#EXTINF:2,\n{$late}.ts\n#EXT-X-DEFINE:NAME=\"late\",VALUE=\"x\"", 5, "{$late} refers to no variable"),
        ("#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"", 4, "the variable a is defined twice"),
        ("#EXT-X-DEFINE:NAME=\"a.b\",VALUE=\"2\"", 4, "is not a variable name"),
        ("#EXT-X-DEFINE:NAME=\"\",VALUE=\"2\"", 4, "is not a variable name"),
        ("#EXT-X-DEFINE:QUERYPARAM=\"to ken\"", 4, "is not a variable name"),
        ("#EXT-X-DEFINE:NAME=\"b\"", 4, "NAME=\"b\" has no VALUE"),
        ("#EXT-X-DEFINE:NAME=\"b\",VALUE=\"1\",QUERYPARAM=\"token\"", 4, "must have one of NAME, IMPORT and QUERYPARAM"),
        ("#EXT-X-DEFINE:VALUE=\"1\"", 4, "must have one of NAME, IMPORT and QUERYPARAM (it has none)"),
        ("#EXT-X-DEFINE:IMPORT=\"cdn\"", 4, "not loaded from a master playlist"),
        ("#EXT-X-DEFINE:QUERYPARAM=\"region\"", 4, "has no query parameter region"),
        ("#EXT-X-DEFINE:NAME=\"b\",VALUE=\"\(String(repeating: "v", count: HLSLimits.definitionValue + 1))\"", 4, "longer than 4096 bytes"),
        ("#EXT-X-DEFINE:NAME=\"big\",VALUE=\"\(String(repeating: "v", count: 4096))\"\n#EXTINF:2,\n"
            + String(repeating: "{$big}", count: 5), 6, "longer than 16384 bytes"),
    ])
    func misusesFailAtTheirLine(_ body: String, line: Int, reason: String) throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n\(body)\n#EXTINF:2,\ns.ts\n"
        let error = try #require(refusal(text))
        #expect(error.line == line, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.hasPrefix(mediaURL.absoluteString + ":\(line): "))
    }

    @Test func importsNeedTheMasterToDefineThemAndOnlyMediaPlaylistsImport() throws {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXTINF:2,\n{$cdn}/s.ts\n"
        let other = try variables(["host": "x"])
        let missing = try #require(refusal(media, imports: other))
        #expect(missing.line == 3 && missing.reason.contains("the master playlist defines no variable cdn"))
        #expect(try #require(refusal(media, imports: HLSVariables())).line == 3)
        // In a master playlist IMPORT is an error wherever it stands, before its first master tag or after.
        let master = "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        let early = try #require(refusal(master, imports: try variables(["cdn": "x"])))
        #expect(early.line == 2 && early.reason.contains("IMPORT in a master playlist"))
        let late = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n"
        #expect(try #require(refusal(late, imports: try variables(["cdn": "x"]))).line == 4)
    }

    @Test func queryValuesThatCouldBreakAQuotedStringAreRefused() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n#EXTINF:2,\ns.ts\n"
        for bad in ["a%22b", "a%0Ab", "a%0Db"] {
            let error = try #require(refusal(text, url: URL(string: "https://x.example/i.m3u8?t=\(bad)")!))
            #expect(error.line == 3 && error.reason.contains("a quote or a line break"))
        }
    }

    @Test func definitionsAreBounded() throws {
        let defines = (0...HLSLimits.definitions).map { "#EXT-X-DEFINE:NAME=\"v\($0)\",VALUE=\"\($0)\"" }.joined(separator: "\n")
        let error = try #require(refusal("#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(defines)\n#EXTINF:2,\ns.ts\n"))
        #expect(error.line == 3 + HLSLimits.definitions && error.reason.contains("more than 64 EXT-X-DEFINE variables"))
        // All of one tag's values together are bounded too.
        let big = "#EXT-X-DEFINE:NAME=\"big\",VALUE=\"\(String(repeating: "v", count: 4096))\""
        let key = "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"{$big}{$big}\",KEYFORMAT=\"{$big}{$big}{$big}\""
        let many = try #require(refusal("#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(big)\n\(key)\n#EXTINF:2,\ns.ts\n"))
        #expect(many.line == 4 && many.reason.contains("longer than \(HLSLimits.substitutedLine) bytes"))
    }

    /// Whatever the definitions and references, parsing returns a playlist or an error.
    @Test func arbitraryDefinitionsNeverTrap() async {
        let lines = ["#EXT-X-DEFINE:NAME=\"a\",VALUE=\"", "#EXT-X-DEFINE:NAME=\"", "#EXT-X-DEFINE:IMPORT=\"", "#EXT-X-DEFINE:QUERYPARAM=\"",
                     "#EXTINF:1,\n", "#EXT-X-KEY:METHOD=AES-128,URI=\"", "#EXT-X-GAP", "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"", ""]
        let values = ["a", "t", "{$a}", "{$t}", "{$", "}", "{$a}{$a}{$a}", "\"", "a\"", "{$x}", "-", "_", "é", "", "{$a"]
        let line = zip(Gen.element(of: lines), Gen.element(of: values)).map { ($0 ?? "") + ($1 ?? "") }
        let imports = try? variables(["a": "{$a}", "t": "x"])
        let url = URL(string: "https://x.example/i.m3u8?t=%7B%24a%7D&a=1")!
        await propertyCheck(count: 1_000, input: line.array(of: 0...30)) { lines in
            _ = try? HLSParser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + lines.joined(separator: "\n"), url: url, masterVariables: imports)
        }
    }
}
