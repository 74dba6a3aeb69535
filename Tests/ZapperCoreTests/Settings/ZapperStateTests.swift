import Foundation
import PropertyBased
import Testing
@testable import ZapperCore

@Suite struct ZapperStateTests {
    @Test func roundTripsThroughJSON() throws {
        let state = ZapperState(lastChannel: 7, lastChannelKey: "tvg:bbc.uk", volume: 35, muted: true,
                                audio: ["tvg:bbc.uk": "deu"], subtitles: ["tvg:bbc.uk": ZapperState.subtitlesOff],
                                picture: .zoom)
        let data = try state.encoded()
        #expect(try ZapperState.decode(data) == state)
    }

    @Test func olderFilesKeepWhatTheyHaveAndTheRestDefaults() throws {
        let state = try ZapperState.decode(Data(#"{"lastChannel": 3, "volume": 250}"#.utf8))
        #expect(state.lastChannel == 3 && state.volume == 100)
        #expect(state.picture == .fit && !state.muted && state.schema == ZapperState.currentSchema)
    }

    @Test func emptyTruncatedOrGarbageFilesThrow() throws {
        let whole = try ZapperState(lastChannel: 2).encoded()
        for bad in [Data(), whole.prefix(whole.count / 2), Data("garbage".utf8), Data("[1,2]".utf8),
                    Data(#"{"picture": "sideways"}"#.utf8)] {
            #expect(throws: DecodingError.self) { try ZapperState.decode(bad) }
        }
    }

    /// Any state comes back equal from its JSON.
    @Test func anyStateRoundTrips() async {
        let names = ["eng", "deu", "off", "Audio Description", "fr-CA", "日本語", "a\"b"]
        let choices = zip(Gen.int(in: 0...(names.count - 1)), Gen.int(in: 0...(names.count - 1))).array(of: 0...6)
        await propertyCheck(count: 200, input: Gen.int(in: -5...2000), Gen.int(in: 0...100), Gen.int(in: 0...5), choices) {
            channel, volume, flags, choices in
            let map = Dictionary(choices.map { ("tvg:" + names[$0.0], names[$0.1]) }, uniquingKeysWith: { a, _ in a })
            let state = ZapperState(lastChannel: channel < 0 ? nil : channel, lastChannelKey: flags > 2 ? "k\(channel)" : nil,
                                    volume: volume, muted: flags % 2 == 1, audio: map, subtitles: map,
                                    picture: PictureMode.allCases[flags % 3])
            #expect((try? ZapperState.decode(state.encoded())) == state)
        }
    }

    @Test func volumeStaysInRange() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1000...1000)) { volume in
            var state = ZapperState(volume: volume)
            #expect((0...100).contains(state.volume))
            state.volume = volume
            #expect(state.volume == min(100, max(0, volume)))
        }
    }

    @Test func channelKeysPreferTheGuideID() {
        let url = URL(string: "http://a.example/1.m3u8")!
        #expect(LineupChannel(number: 1, name: "A", url: url, guideID: "a.tv").stateKey == "tvg:a.tv")
        #expect(LineupChannel(number: 1, name: "A", url: url).stateKey == "http://a.example/1.m3u8")
    }
}
