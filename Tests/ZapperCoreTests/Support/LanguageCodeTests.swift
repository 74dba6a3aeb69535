import Foundation
import Testing
import ZapperCore

@Suite struct LanguageCodeTests {
    @Test func playlistTagsMatchStreamCodes() {
        #expect(LanguageCode.matches("de", "deu"))
        #expect(LanguageCode.matches("deu", "ger"))
        #expect(LanguageCode.matches("de-AT", "DEU"))
        #expect(LanguageCode.matches("en", "eng") && LanguageCode.matches("en-GB", "en_US"))
        #expect(LanguageCode.matches("fr", "fre") && LanguageCode.matches("fra", "fre"))
        #expect(LanguageCode.matches("zh-Hans", "chi"))
        #expect(LanguageCode.matches("xyz", "XYZ"))  // unknown codes still match themselves
        #expect(!LanguageCode.matches("de", "eng"))
        #expect(!LanguageCode.matches("und", "und"))
        #expect(!LanguageCode.matches("", ""))
        #expect(LanguageCode.normalized("nb-NO") == "nob")
    }
}

@Suite struct AudioRenditionChoiceTests {
    let master: HLSMasterPlaylist = {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",LANGUAGE="en",URI="lo/en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="English",LANGUAGE="en",URI="hi/en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Deutsch",LANGUAGE="de",DEFAULT=YES,URI="hi/de.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Commentary",URI="hi/c.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="lo"
            lo.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="hi"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=300000
            plain.m3u8
            """
        guard case .master(let master)? = try? HLSParser.parse(text, url: URL(string: "http://example.com/x/master.m3u8")!) else {
            fatalError("the fixture does not parse")
        }
        return master
    }()

    @Test func theViewersLanguageThenTheDefaultThenTheFirst() throws {
        let hi = master.variants[1]
        #expect(master.audioRendition(for: hi, languages: ["ger"])?.uri?.absoluteString == "http://example.com/x/hi/de.m3u8")
        #expect(master.audioRendition(for: hi, languages: ["fr", "eng"])?.name == "English")
        #expect(master.audioRendition(for: hi, languages: ["Commentary"])?.name == "Commentary")  // no LANGUAGE: by name
        #expect(master.audioRendition(for: hi, languages: [])?.name == "Deutsch")  // DEFAULT=YES
        #expect(master.audioRendition(for: hi, languages: ["fr"])?.name == "Deutsch")
        // Each variant plays from its own group.
        #expect(master.audioRendition(for: master.variants[0], languages: ["de"])?.uri?.absoluteString == "http://example.com/x/lo/en.m3u8")
        #expect(master.audioRendition(for: master.variants[2], languages: ["en"]) == nil)
    }
}
