import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
import ZapperMedia

/// Choosing one of the audio languages muxed into a segment (the demo
/// origin's channels with two audio tracks), on real segments.
@Suite(.timeLimit(.minutes(30)))
struct AudioChoiceTests {
    func twoLanguageChannel() throws -> DemoChannel {
        try #require(try Repo.catalog().channels.first { $0.audio.count > 1 })
    }

    func newestSegment(channel: Int) throws -> [UInt8] {
        let origin = try OriginProcess.shared.get()
        let playlist = try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel)/240p/index.m3u8").text
        let name = try #require(playlist.split(separator: "\n").last { !$0.hasPrefix("#") })
        return try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel)/240p/\(name)").body
    }

    func demuxer(_ bytes: [UInt8], cached: [CodecParameters]? = nil, audio: AudioChoice) throws -> Demuxer {
        let queue = ByteQueue()
        queue.append(Data(bytes))
        queue.finish()
        return try Demuxer(queue: queue, cached: cached, audio: audio)
    }

    /// Decodes what the demuxer hands out; returns the audio stream indexes seen and the
    /// strongest of the channel's tones in the decoded audio.
    func decodedTone(_ demuxer: Demuxer, tones: [Int]) throws -> (streams: Set<Int>, tone: Int?) {
        var streams = Set<Int>()
        var decoders: [Int: Decoder] = [:]
        let resampler = AudioResampler(outputRate: 48_000)
        var samples: [Float] = []
        while let packet = try demuxer.readPacket() {
            guard demuxer.parameters[packet.streamIndex].kind == .audio else { continue }
            streams.insert(packet.streamIndex)
            let decoder = try decoders[packet.streamIndex] ?? Decoder(demuxer.parameters[packet.streamIndex])
            decoders[packet.streamIndex] = decoder
            try decoder.send(packet)
            while let frame = try decoder.receive() {
                let stereo = try resampler.convert(frame)
                samples += stride(from: 0, to: stereo.count, by: 2).map { Float(stereo[$0]) / 32768 }
            }
        }
        let tone = tones.max { goertzelPower(samples, frequency: Double($0), sampleRate: 48_000)
            < goertzelPower(samples, frequency: Double($1), sampleRate: 48_000) }
        return (streams, samples.count > 48_000 ? tone : nil)
    }

    @Test func listsTheAudioStreamsWithTheirLanguages() throws {
        let channel = try twoLanguageChannel()
        let segment = try newestSegment(channel: channel.number)
        let probed = try demuxer(segment, audio: .first)
        #expect(probed.probed)
        #expect(probed.audioStreams.map(\.language) == channel.audio.map(\.streamLanguage))
        #expect(probed.audioStreams.allSatisfy { $0.codecName == "aac" })
        // Opened with cached parameters (no probing), the languages are there too: they come with the PMT.
        let cached = try demuxer(segment, cached: probed.parameters, audio: .first)
        #expect(!cached.probed)
        #expect(cached.audioStreams == probed.audioStreams)
    }

    @Test(arguments: [false, true])
    func choosingALanguageDecodesItsTone(cachedParameters: Bool) throws {
        let channel = try twoLanguageChannel()
        let segment = try newestSegment(channel: channel.number)
        let parameters = cachedParameters ? try demuxer(segment, audio: .first).parameters : nil
        let tones = channel.audio.map(\.toneHz)
        let second = channel.audio[1]

        let byDefault = try demuxer(segment, cached: parameters, audio: .first)
        let defaultResult = try decodedTone(byDefault, tones: tones)
        #expect(defaultResult.streams == [byDefault.audioStreams[0].index])
        #expect(defaultResult.tone == channel.audio[0].toneHz)

        // The playlist's "de", the stream's "deu" and the bibliographic "ger" all find the German track.
        for tag in [second.language, try #require(second.streamLanguage)] + (second.language == "de" ? ["GER"] : []) {
            let chosen = try demuxer(segment, cached: parameters, audio: .language(tag))
            #expect(chosen.selectedAudio == chosen.audioStreams[1].index, "\(tag)")
            let result = try decodedTone(chosen, tones: tones)
            #expect(result.streams == [chosen.audioStreams[1].index], "\(tag)")
            #expect(result.tone == second.toneHz, "\(tag)")
        }

        let byIndex = try demuxer(segment, cached: parameters, audio: .stream(byDefault.audioStreams[1].index))
        #expect(try decodedTone(byIndex, tones: tones).tone == second.toneHz)
    }

    @Test func switchingMidSegmentTakesEffectAtTheNextPacket() throws {
        let channel = try twoLanguageChannel()
        let chosen = try demuxer(try newestSegment(channel: channel.number), audio: .first)
        var seen: [Int] = []
        while let packet = try chosen.readPacket() {
            guard chosen.parameters[packet.streamIndex].kind == .audio else { continue }
            seen.append(packet.streamIndex)
            if seen.count == 20 { chosen.select(.language(channel.audio[1].language)) }
        }
        let first = chosen.audioStreams[0].index, second = chosen.audioStreams[1].index
        #expect(seen.prefix(20).allSatisfy { $0 == first })
        #expect(seen.count > 40 && seen.dropFirst(20).allSatisfy { $0 == second })
    }

    @Test func choiceFallsBackToTheFirstStream() {
        let streams = [AudioStream(index: 1, streamID: 0x101, language: "eng", codecName: "aac"),
                       AudioStream(index: 2, streamID: 0x102, language: "deu", codecName: "aac"),
                       AudioStream(index: 3, streamID: 0x103, language: nil, codecName: "ac3")]
        #expect(AudioChoice.first.pick(from: streams) == 1)
        #expect(AudioChoice.language("de-AT").pick(from: streams) == 2)
        #expect(AudioChoice.languages(["fr", "deu", "en"]).pick(from: streams) == 2)
        #expect(AudioChoice.language("fr").pick(from: streams) == 1)
        #expect(AudioChoice.language("und").pick(from: streams) == 1)
        #expect(AudioChoice.stream(3).pick(from: streams) == 3)
        #expect(AudioChoice.stream(7).pick(from: streams) == 1)
        #expect(AudioChoice.first.pick(from: []) == nil)
    }
}
