import Foundation
import Testing
import OriginKit
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The origin's renditions over HTTP: a second language muxed into every variant, audio renditions
/// with playlists of their own lined up with the picture, and live WebVTT subtitles.
extension OriginOverHTTP.EndToEnd {
    /// Presentation times of the decoded frames of one stream.
    func frameTimes(_ file: URL, stream: String) async throws -> [Double] {
        let result = try await Tool.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "frame=pts_time",
                                              "-of", "csv=p=0", file.path])
        return String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
            .compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) }
    }

    /// The languages and start PTS of a segment's streams, in stream order.
    func streamLanguages(_ file: URL) async throws -> [(type: String, language: String?)] {
        let result = try await Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type:stream_tags=language",
                                              "-of", "json", file.path])
        struct Probe: Decodable {
            struct Stream: Decodable {
                var codec_type: String
                var tags: [String: String]?
            }
            var streams: [Stream]
        }
        return try JSONDecoder().decode(Probe.self, from: result.stdout).streams.map { ($0.codec_type, $0.tags?["language"]) }
    }

    @Test func secondAudioLanguageIsMuxedIntoEveryVariant() async throws {
        let channels = catalog.channels.filter { $0.audio.count > 1 }
        #expect(channels.count >= 2)
        for channel in channels {
            let master = try await get("/ch/\(channel.number)/master.m3u8").text
            let audioLines = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") }
            #expect(audioLines.count == channel.audio.count)
            for (index, track) in channel.audio.enumerated() {
                let line = try #require(audioLines.first { $0.contains("LANGUAGE=\"\(track.language)\"") }, "\(track.language)")
                #expect(line.contains("GROUP-ID=\"audio\"") && line.contains("NAME=\"\(track.name)\""))
                #expect(line.contains(index == 0 ? "DEFAULT=YES,AUTOSELECT=YES" : "DEFAULT=NO,AUTOSELECT=YES"))
                #expect(!line.contains("URI="), "muxed tracks have no playlist of their own")
            }
            let variants = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
            #expect(variants.count == 3 && variants.allSatisfy { $0.contains("AUDIO=\"audio\"") })

            for variant in VideoVariant.all {
                let segment = try await get(try newestSegment(channel: channel.number, rendition: variant.name))
                let file = try Tool.temporaryFile(segment.body, suffix: ".ts")
                defer { try? FileManager.default.removeItem(at: file) }
                let audio = try await streamLanguages(file).filter { $0.type == "audio" }
                #expect(audio.map(\.language) == channel.audio.map(\.streamLanguage), "\(variant.name) of channel \(channel.number)")
                guard variant == VideoVariant.all[0] else { continue }
                // Each audio stream plays its own track's tone.
                for (index, track) in channel.audio.enumerated() {
                    let pcm = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-map", "0:a:\(index)",
                                                      "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
                    let samples = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                    #expect(samples.count > 48_000)
                    let tones = channel.audio.map(\.toneHz)
                    let strongest = tones.max { goertzelPower(samples, frequency: Double($0), sampleRate: 48_000)
                        < goertzelPower(samples, frequency: Double($1), sampleRate: 48_000) }
                    #expect(strongest == track.toneHz, "audio stream \(index) of channel \(channel.number)")
                }
            }
        }
    }

    /// SplitAudio: video-only variants and audio languages with playlists of their own,
    /// whose segments keep the muxed loop's timestamps (so the renditions line up).
    @Test(arguments: SplitAudio.channels)
    func separateAudioRenditionsHaveTheirOwnPlaylists(number: Int) async throws {
        let channel = try #require(catalog.channel(number: number))
        let master = try await get("/ch/\(number)/\(SplitAudio.masterFile)")
        #expect(master.status == 200)
        let audioLines = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") }
        #expect(audioLines.count == channel.audio.count)
        let variants = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2 && variants.allSatisfy { $0.contains("AUDIO=\"aac\"") })
        #expect(uris(master.text) == ["split-video-240p/index.m3u8", "split-video-720p/index.m3u8"])

        func firstTime(_ path: String, _ stream: String) async throws -> (streams: [(type: String, language: String?)], time: Double?) {
            let file = try await Tool.temporaryFile(try get(path).body, suffix: ".ts")
            defer { try? FileManager.default.removeItem(at: file) }
            return await (try streamLanguages(file), try frameTimes(file, stream: stream).first)
        }
        // The same media sequence in every form.
        let muxedPath = try await newestSegment(channel: number, rendition: "240p")
        let file = String(muxedPath.split(separator: "/").last ?? "")
        let muxed = try await firstTime(muxedPath, "v:0")
        let video = try await firstTime("/ch/\(number)/\(SplitAudio.videoFolder("240p"))/\(file)", "v:0")
        #expect(video.streams.map(\.type) == ["video"])
        #expect(video.time == muxed.time, "the video-only segment keeps the muxed one's timestamps")
        for (index, track) in channel.audio.enumerated() {
            let line = try #require(audioLines.first { $0.contains("LANGUAGE=\"\(track.language)\"") })
            #expect(line.contains("URI=\"\(SplitAudio.audioFolder(language: track.language))/index.m3u8\""))
            #expect(line.contains(index == 0 ? "DEFAULT=YES" : "DEFAULT=NO"))
            let audio = try await firstTime("/ch/\(number)/\(SplitAudio.audioFolder(language: track.language))/\(file)", "a:0")
            #expect(audio.streams.map(\.type) == ["audio"] && audio.streams.first?.language == track.streamLanguage)
            // An audio segment starts within a frame or two of the picture's (its own cut points).
            let gap = try #require(audio.time) - (try #require(muxed.time))
            #expect(abs(gap) < 0.1, "audio \(track.language) starts \(gap) s from the picture")
        }
    }

    @Test func subtitlesAreLiveWebVTTAlignedWithTheVideo() async throws {
        let channels = catalog.channels.filter { !$0.subtitleTracks.isEmpty }
        #expect(channels.count >= 2)
        for channel in channels {
            let master = try await get("/ch/\(channel.number)/master.m3u8").text
            #expect(master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains("SUBTITLES=\"subs\"") })
            for track in channel.subtitleTracks {
                let folder = EncodeRecipe.subtitleDirectory(language: track.language)
                #expect(master.contains("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\""))
                #expect(master.contains("URI=\"\(folder)/index.m3u8\""))

                // The subtitle playlist lists what the video's does: same sequence numbers, same durations
                // (fetched again when the two loads straddle a new segment).
                var subtitles = "", video = ""
                for _ in 0..<3 {
                    subtitles = try await get("/ch/\(channel.number)/\(folder)/index.m3u8").text
                    video = try await get("/ch/\(channel.number)/240p/index.m3u8").text
                    if mediaSequence(subtitles) == mediaSequence(video) { break }
                }
                func shape(_ playlist: String) -> [String] {
                    playlist.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") }
                        .map { $0.replacingOccurrences(of: ".vtt", with: ".ts") }
                }
                #expect(shape(subtitles) == shape(video))

                // The newest cue shows inside its video segment, 0.1 s after its first picture.
                let name = try #require(uris(subtitles).last)
                let sequence = try #require(Int64(name.dropLast(4)))
                let cue = try await get("/ch/\(channel.number)/\(folder)/\(name)")
                #expect(cue.status == 200 && cue.headers["content-type"] == "text/vtt; charset=utf-8")
                let lines = cue.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(lines.first == "WEBVTT")
                let map = try #require(lines.first { $0.hasPrefix("X-TIMESTAMP-MAP=MPEGTS:") })
                #expect(map.hasSuffix(",LOCAL:00:00:00.000"))
                let ticks = try #require(Int64(map.dropFirst("X-TIMESTAMP-MAP=MPEGTS:".count).prefix { $0.isNumber }))
                let timing = try #require(lines.first { $0.contains(" --> ") })
                let times = timing.split(separator: " ").filter { $0.contains(":") && $0.contains(".") && !$0.contains("%") }.map { part in
                    part.split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? .nan) }
                }
                #expect(times.count == 2)
                #expect(lines.contains(PlaylistWriter.cueText(channel: channel, track: track, sequence: sequence)), "\(cue.text)")

                let segment = try await get("/ch/\(channel.number)/240p/\(sequence).ts")
                let file = try Tool.temporaryFile(segment.body, suffix: ".ts")
                defer { try? FileManager.default.removeItem(at: file) }
                let pictures = try await frameTimes(file, stream: "v:0")
                let first = try #require(pictures.first), last = try #require(pictures.last)
                let start = Double(ticks) / 90_000 + times[0]
                let end = Double(ticks) / 90_000 + times[1]
                #expect(abs(start - (first + 0.1)) < 0.04, "cue at \(start) s, segment \(sequence) starts at \(first) s")
                #expect(end > start && end < last + 1.0 / 30 + 0.001)
            }
        }
    }
}
