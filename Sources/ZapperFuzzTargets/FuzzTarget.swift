import Foundation
import ZapperCore
import ZapperGuide
import ZapperSettings
import ZapperUI

/// What `make fuzz` feeds with libFuzzer's inputs (`zapper-fuzz`): each parser
/// that reads bytes from outside, as the box reads them. A target must never
/// trap or hang, whatever the bytes; a bad input is an error value, not a
/// crash. The seeds and every crash found (`Tests/FuzzTests/Seeds`, `…/Regressions`)
/// also run through these in the ordinary tests (`FuzzTests`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case m3u, hls, webvtt, xmltv, config, state, keymap, logo, mqtt, captions

    public func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .m3u:
            let lineup = M3UPlusParser.parse(text, source: "fuzz.m3u")
            _ = lineup.channels.first.map(\.stateKey)
            _ = lineup.channels.first.map { ($0.program, $0.isRadio) }
            // An HDHomeRun's lineup.json and discover.json are lineups too.
            let tuner = HDHomeRunLineup.parse(text, source: "fuzz.json")
            _ = (tuner.channels.first?.stateKey, HDHomeRunLineup.device(text)?.tuners)
        case .hls:
            Self.playlist(text)
        case .webvtt:
            if let document = try? WebVTTParser.parse(text) {
                for cue in document.cues.prefix(64) { _ = WebVTTParser.plainText(Substring(cue.text)) }
            }
        case .xmltv:
            _ = try? GuideReader.read(bytes: bytes, source: "fuzz.xml", chunkSize: 4096)
            for line in text.split(separator: "\n").prefix(16) { _ = XMLTVTime.seconds(line) }
        case .config:
            _ = try? ConfigFile.parse(text, file: "fuzz.toml")
        case .state:
            if var state = try? ZapperState.decode(Data(bytes)) {
                _ = CrashLoopBreaker.start(&state, now: 1_800_000_000)
                if let saved = state.parental {
                    var gate = ParentalGate(policy: .init(maxAge: 12))
                    gate.restore(saved, now: 0, wallNow: 1_800_000_000_000)
                }
                _ = try? state.encoded()
            }
        case .keymap:
            _ = try? Keymap.load(text, source: "fuzz.keymap")
        case .logo:
            _ = decodePNG(bytes)
        case .mqtt:
            // An MQTT command: the verb on the first line, the payload after it (as ZapperMQTT reads them).
            let newline = bytes.firstIndex(of: 0x0a) ?? bytes.endIndex
            let verb = String(decoding: bytes[..<newline], as: UTF8.self)
            let payload = Array(bytes[min(newline + 1, bytes.endIndex)...])
            let refusal: String?
            switch FleetCommand.parse(verb: verb, payload: payload) {
            case .success: refusal = nil
            case .failure(let why): refusal = why.description
            }
            _ = FleetPayloads.reply(verb: verb, payload: payload, refusal: refusal)
            _ = MQTTBroker.parse(verb)
            _ = MQTTTopics.boxID(fromHostName: verb)
        case .captions:
            // The bytes as a picture's cc_data for each 608 channel, and as the caption decoder's ASS text;
            // as pictures of CEA-708 data for services 1 and 2 (in 60-byte pictures, and whole).
            for number in 1...4 {
                var selector = CEA608Selector(number: number)
                _ = selector.select(bytes)
                _ = selector.select(Array(bytes.reversed()))
            }
            _ = CaptionText.lines(fromASS: text)
            for service in 1...2 {
                var decoder = CEA708Decoder(service: service)
                for start in stride(from: 0, to: bytes.count, by: 60) { _ = decoder.decode(Array(bytes[start..<min(start + 60, bytes.count)])) }
                _ = decoder.decode(bytes)
            }
        }
    }

    /// A playlist parsed, then followed as the live session would: two reloads and the byte ranges cut.
    static func playlist(_ text: String) {
        guard let parsed = try? HLSParser.parse(text, url: URL(string: "http://fuzz.test/live/index.m3u8")!),
              case .media(let playlist) = parsed else { return }
        var cursor = LiveSegmentCursor()
        _ = cursor.update(playlist, at: 0)
        _ = cursor.update(playlist, at: 1)
        _ = cursor.nextReload(loadStarted: 1)
        for segment in playlist.segments.prefix(1000) {
            if let range = segment.byteRange {
                var cut = ByteRangeCut(range)
                _ = cut.keep(count: 188)
            }
        }
    }
}
