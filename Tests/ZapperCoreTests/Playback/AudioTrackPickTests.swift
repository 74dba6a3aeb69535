import Foundation
import Testing
import ZapperCore

/// Which sound plays: the viewer's choice for the channel, the box's languages, then the
/// channel's default; an audio description only when the box asks for it.
@Suite struct AudioTrackPickTests {
    /// A DVB channel's PMT: English, German, English audio description.
    static let pmt = [AudioTrackInfo(name: "English", language: "eng"),
                      AudioTrackInfo(name: "Deutsch", language: "deu"),
                      AudioTrackInfo(name: "English (audio description)", language: "eng", isDescription: true)]

    @Test func theFirstPlaysWhenNothingIsAskedFor() {
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences()) == 0)
        #expect(AudioTrackPick.pick([], chosen: nil, preferences: AudioPreferences()) == nil)
    }

    @Test func theBoxsLanguagesInOrder() {
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["de"])) == 1)
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["fra", "ger", "eng"])) == 1)
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["fra"])) == 0)
    }

    @Test func anAudioDescriptionOnlyWhenTheBoxAsks() {
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["eng"])) == 0)
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["eng"], audioDescription: true)) == 2)
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(audioDescription: true)) == 2)
        // A language without one: its main sound.
        #expect(AudioTrackPick.pick(Self.pmt, chosen: nil, preferences: AudioPreferences(languages: ["deu"], audioDescription: true)) == 1)
    }

    @Test func theViewersChoiceWinsByNameThenLanguage() {
        let box = AudioPreferences(languages: ["deu"])
        #expect(AudioTrackPick.pick(Self.pmt, chosen: "English (audio description)", preferences: box) == 2)
        #expect(AudioTrackPick.pick(Self.pmt, chosen: "en", preferences: box) == 0)
        // A choice the channel no longer has: the box's languages.
        #expect(AudioTrackPick.pick(Self.pmt, chosen: "ita", preferences: box) == 1)
    }

    @Test func aChoiceIsRememberedSoItCanBeFoundAgain() {
        // Two English tracks: the name tells them apart; German alone: its language.
        #expect(AudioTrackPick.remembered(2, in: Self.pmt) == "English (audio description)")
        #expect(AudioTrackPick.remembered(0, in: Self.pmt) == "English")
        #expect(AudioTrackPick.remembered(1, in: Self.pmt) == "deu")
        for index in Self.pmt.indices {
            let kept = AudioTrackPick.remembered(index, in: Self.pmt)
            #expect(AudioTrackPick.pick(Self.pmt, chosen: kept, preferences: AudioPreferences(languages: ["deu"], audioDescription: true)) == index)
        }
    }

    @Test func hlsDefaultsAndTheirNames() {
        let renditions = [AudioTrackInfo(name: "Français", language: "fr"),
                          AudioTrackInfo(name: "English", language: "en", isDefault: true),
                          AudioTrackInfo(name: "English AD", language: "en", isDescription: true)]
        #expect(AudioTrackPick.pick(renditions, chosen: nil, preferences: AudioPreferences()) == 1)
        #expect(AudioTrackPick.pick(renditions, chosen: nil, preferences: AudioPreferences(audioDescription: true)) == 2)
        #expect(AudioTrackPick.streamName(language: "deu", isDescription: false, position: 1) == "Deutsch")
        #expect(AudioTrackPick.streamName(language: "eng", isDescription: true, position: 2) == "English (audio description)")
        #expect(AudioTrackPick.streamName(language: nil, isDescription: false, position: 0) == "Sound 1")
        #expect(AudioTrackPick.streamName(language: "xyz", isDescription: false, position: 0) == "xyz")
    }

    @Test func subtitlesInTheBoxsLanguages() {
        #expect(SubtitlePreference.pick(["en", "fr"], preferred: ["fra", "eng"]) == 1)
        #expect(SubtitlePreference.pick(["en", nil], preferred: []) == nil)
        #expect(SubtitlePreference.pick([nil, "de"], preferred: ["it"]) == nil)
    }

    @Test func hlsCharacteristicsMarkAnAudioDescription() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",LANGUAGE="en",NAME="English AD",CHARACTERISTICS="public.accessibility.describes-video,public.accessibility.transcribes-spoken-dialog",URI="ad.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="a"
            v.m3u8
            """
        guard case .master(let parsed) = try HLSParser.parse(master, url: try #require(URL(string: "http://h/m.m3u8"))) else {
            Issue.record("not a master")
            return
        }
        let renditions = parsed.renditions(.audio, group: "a")
        #expect(renditions.map(\.describesVideo) == [false, true])
        let variant = try #require(parsed.variants.first)
        #expect(parsed.audioRendition(for: variant, chosen: nil, preferences: AudioPreferences(audioDescription: true))?.name == "English AD")
        #expect(parsed.audioRendition(for: variant, chosen: nil, preferences: AudioPreferences())?.name == "English")
    }
}
