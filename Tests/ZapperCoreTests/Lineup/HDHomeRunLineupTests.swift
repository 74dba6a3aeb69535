import Foundation
import Testing
import ZapperCore

/// An HDHomeRun's own lineup (`lineup.json`) and its device document (`discover.json`),
/// in the shapes SiliconDust's firmware writes them.
@Suite struct HDHomeRunLineupTests {
    static let lineup = """
        [{"GuideNumber":"101","GuideName":"HD One","VideoCodec":"H264","AudioCodec":"AAC","HD":1,"URL":"http://192.168.1.50:5004/auto/v101"},
         {"GuideNumber":"5.1","GuideName":"WCBS-DT","VideoCodec":"MPEG2","AudioCodec":"AC3","URL":"http://192.168.1.50:5004/auto/v5.1"},
         {"GuideNumber":"105","GuideName":"Radio Five","AudioCodec":"MP2","URL":"http://192.168.1.50:5004/auto/v105"},
         {"GuideNumber":"7","GuideName":"Pay TV","DRM":1,"URL":"http://192.168.1.50:5004/auto/v7"},
         {"GuideNumber":"8","GuideName":"Nowhere"},
         {"GuideNumber":"9","GuideName":"Local file","URL":"file:///etc/passwd"},
         "not an entry"]
        """
    static let discover = """
        {"FriendlyName":"HDHomeRun CONNECT DUO","ModelNumber":"HDHR5-2DT","DeviceID":"10A1B2C3","TunerCount":2,
         "BaseURL":"http://192.168.1.50:80","LineupURL":"http://192.168.1.50:80/lineup.json"}
        """

    @Test func aLineupJSONIsReadAsChannels() {
        let read = HDHomeRunLineup.parse(Self.lineup, source: "lineup.json")
        #expect(read.channels.map(\.number) == [1, 101, 105])
        #expect(read.channels.map(\.name) == ["5.1 WCBS-DT", "HD One", "Radio Five"])
        #expect(read.channels.first { $0.number == 101 }?.url.absoluteString == "http://192.168.1.50:5004/auto/v101")
        // A sound codec and no video codec: a radio channel.
        #expect(read.channels.filter(\.isRadio).map(\.number) == [105])
        // The bad entries are said with their place in the list; the good ones load.
        #expect(read.problems.map(\.line) == [4, 5, 6, 7])
        #expect(read.problems[0].message.contains("copy-protected (DRM)"))
        #expect(read.problems[1].message.contains("no URL"))
        #expect(read.problems[2].message.contains("only http and https"))
        #expect(read.problems[3].message.contains("not an object"))
        // No discover document: no tuner count known.
        #expect(read.tunerLimits.isEmpty)
    }

    @Test func theDevicesTunerCountBoundsItsHost() throws {
        let combined = try #require(HDHomeRunLineup.combined(discover: Self.discover, lineup: Self.lineup))
        #expect(HDHomeRunLineup.looksLikeJSON(combined))
        let read = HDHomeRunLineup.parse(combined, source: "discover.json")
        #expect(read.channels.count == 3)
        #expect(read.tunerLimits == ["192.168.1.50": 2])
    }

    @Test func aDiscoverDocumentNamesItsLineup() throws {
        let device = try #require(HDHomeRunLineup.device(Self.discover))
        #expect(device.tuners == 2)
        #expect(device.name == "HDHomeRun CONNECT DUO")
        #expect(device.lineupURL?.absoluteString == "http://192.168.1.50:80/lineup.json")
        // Read alone (a file), it says where its lineup is.
        let read = HDHomeRunLineup.parse(Self.discover, source: "discover.json")
        #expect(read.channels.isEmpty)
        #expect(read.problems.first?.message.contains("its lineup is at http://192.168.1.50:80/lineup.json") == true)
    }

    @Test func hostileNumbersAndShapesFailTheItemNotTheLineup() throws {
        // A tuner count out of range is no limit; a LineupURL that is not http(s) is none.
        let odd = #"{"TunerCount": 100000, "LineupURL": "file:///lineup.json"}"#
        let device = try #require(HDHomeRunLineup.device(odd))
        #expect(device.tuners == nil && device.lineupURL == nil)
        #expect(HDHomeRunLineup.device(#"{"TunerCount": -3}"#)?.tuners == nil)
        #expect(HDHomeRunLineup.parse("[{", source: "x").problems.first?.message.contains("not JSON") == true)
        #expect(HDHomeRunLineup.parse("42", source: "x").channels.isEmpty)
        // A GuideNumber that is a number in JSON, or huge, or negative.
        let numbers = #"[{"GuideNumber":12,"GuideName":"A","URL":"http://h/a"},{"GuideNumber":"99999999999999999999","GuideName":"B","URL":"http://h/b"},{"GuideNumber":"-4","GuideName":"C","URL":"http://h/c"}]"#
        let read = HDHomeRunLineup.parse(numbers, source: "x")
        #expect(read.channels.map(\.number) == [1, 2, 12])
        #expect(!HDHomeRunLineup.looksLikeJSON("#EXTM3U\n"))
        #expect(HDHomeRunLineup.looksLikeJSON("\u{FEFF}  \n[]"))
    }

    @Test func aTunersBusyAnswerIsSaidInWords() throws {
        let url = try #require(URL(string: "http://192.168.1.50:5004/auto/v101"))
        let busy = NetworkTuner.explain(PlaybackFailure(.http(status: 503), "HTTP 503"), url: url, limits: ["192.168.1.50": 2])
        #expect(busy.kind == .tunersBusy(2))
        #expect(busy.words == "The tuner is busy: all 2 of its tuners are in use")
        #expect(busy.name == "tuners-busy")
        // Another host's 503, or another status, stays what it was.
        #expect(NetworkTuner.explain(PlaybackFailure(.http(status: 503), "x"), url: url, limits: [:]).kind == .http(status: 503))
        #expect(NetworkTuner.explain(PlaybackFailure(.http(status: 404), "x"), url: url, limits: ["192.168.1.50": 2]).kind == .http(status: 404))
    }
}
