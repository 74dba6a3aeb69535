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
