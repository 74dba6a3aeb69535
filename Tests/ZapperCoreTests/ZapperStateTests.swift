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
        #expect(try state.encoded() == data)  // sorted keys: equal states, equal bytes
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
