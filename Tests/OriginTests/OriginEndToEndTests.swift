import Foundation
import Testing
import OriginKit
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The real `zapper-origin` over real HTTP on loopback: the origin the tests of this
/// process share (no fault is switched on it here).
extension OriginOverHTTP {
@Suite struct EndToEnd {
    let origin: OriginProcess
    let catalog: ChannelCatalog

    init() throws {
        origin = try OriginProcess.shared.get()
        catalog = try Repo.catalog()
    }

    func get(_ path: String) async throws -> RawHTTPConnection.Response {
        try await RawHTTPConnection.fetch(port: origin.port, "GET", path)
    }

    /// URIs of a playlist (its non-tag lines).
    func uris(_ playlist: String) -> [String] {
        playlist.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    func mediaSequence(_ playlist: String) -> Int64? {
        playlist.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }
            .flatMap { Int64($0.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) }
    }

    /// The newest segment's path of a channel's rendition.
    func newestSegment(channel: Int, rendition: String) async throws -> String {
        let playlist = try await get("/ch/\(channel)/\(rendition)/index.m3u8")
        #expect(playlist.status == 200)
        return "/ch/\(channel)/\(rendition)/" + (uris(playlist.text).last ?? "missing")
    }

    struct Stream: Decodable {
        var codec_name: String
        var codec_type: String
        var width: Int?
        var height: Int?
        var sample_rate: String?
    }

    func probe(_ bytes: [UInt8]) async throws -> [Stream] {
        let file = try Tool.temporaryFile(bytes, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,codec_type,width,height,sample_rate",
                                              "-of", "json", file.path])
        #expect(result.status == 0, "ffprobe: \(result.stderr)")
        struct Probe: Decodable { var streams: [Stream] }
        return try JSONDecoder().decode(Probe.self, from: result.stdout).streams
    }

    /// Decodes a whole segment; returns what ffmpeg complained about.
    func decodeErrors(_ bytes: [UInt8]) async throws -> String {
        let file = try Tool.temporaryFile(bytes, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    // MARK: playback path

    @Test func masterToMediaToSegmentDecodes() async throws {
        let master = try await get("/ch/3/master.m3u8")
        #expect(master.status == 200)
        #expect(master.headers["content-type"] == "application/vnd.apple.mpegurl")
        let variants = uris(master.text)
        #expect(variants == ["240p/index.m3u8", "720p/index.m3u8", "1080p/index.m3u8"])
        for (variant, size) in zip(variants, [(426, 240), (1280, 720), (1920, 1080)]) {
            let media = try await get("/ch/3/\(variant)")
            #expect(media.status == 200)
            #expect(media.text.contains("#EXT-X-TARGETDURATION:2"))
            #expect(media.text.contains("#EXT-X-PROGRAM-DATE-TIME:"))
            let segments = uris(media.text)
            #expect(segments.count == catalog.windowSegments)
            let segmentPath = "/ch/3/\(variant.replacingOccurrences(of: "index.m3u8", with: ""))\(segments.last!)"
            let segment = try await get(segmentPath)
            #expect(segment.status == 200 && segment.ending == .complete)
            let streams = try await probe(segment.body)
            let video = try #require(streams.first { $0.codec_type == "video" })
            #expect(video.codec_name == "h264" && video.width == size.0 && video.height == size.1)
            #expect(streams.contains { $0.codec_type == "audio" && $0.codec_name == "aac" && $0.sample_rate == "48000" })
            #expect(try await decodeErrors(segment.body) == "")
        }
    }

    @Test func fullHDVariantHasARealisticBitrate() async throws {
        let master = try await get("/ch/1/master.m3u8").text
        let line = try #require(master.split(separator: "\n").first { $0.contains("RESOLUTION=1920x1080") })
        let average = try #require(line.split(separator: ",").first { $0.hasPrefix("AVERAGE-BANDWIDTH=") })
        let bitsPerSecond = try #require(Int(average.dropFirst("AVERAGE-BANDWIDTH=".count)))
        #expect((4_000_000...6_500_000).contains(bitsPerSecond), "1080p averages \(bitsPerSecond) bit/s")
        // And a segment really is that big: 2 s at 4+ Mbit/s is over 1 MB.
        let segment = try await get(try newestSegment(channel: 1, rendition: "1080p"))
        #expect(segment.body.count > 1_000_000)
    }

    @Test func windowMovesWithTime() async throws {
        // The sleep resumes on the shared cooperative pool, which other tests' blocking
        // work can hold for seconds: the window is checked against the time that really
        // passed between the two answers, bracketed by the clock around each request.
        let clock = ContinuousClock()
        let beforeFirst = clock.now
        let first = try await get("/ch/2/720p/index.m3u8").text
        let afterFirst = clock.now
        try await Task.sleep(for: .milliseconds(4200))
        let beforeSecond = clock.now
        let second = try await get("/ch/2/720p/index.m3u8").text
        let afterSecond = clock.now
        let a = try #require(mediaSequence(first))
        let b = try #require(mediaSequence(second))
        let segment = Double(catalog.segmentSeconds)
        let least = Int(((beforeSecond - afterFirst) / .seconds(1)) / segment) - 1
        let most = Int((((afterSecond - beforeFirst) / .seconds(1)) / segment).rounded(.up)) + 1
        #expect(b - a >= 2, "4.2 s is two segments of 2 s")
        #expect((Int64(least)...Int64(most)).contains(b - a),
                "media sequence went from \(a) to \(b) in \(beforeSecond - afterFirst)…\(afterSecond - beforeFirst)")
        #expect(uris(second).first == "\(b).ts")
        // The newest segment of the first fetch is still listed, further up, while the window holds it.
        if b - a < Int64(catalog.windowSegments) {
            #expect(uris(second).contains(uris(first).last!))
        }
    }

    @Test func eachChannelShowsItsColourAndPlaysItsTone() async throws {
        for channel in catalog.channels {
            let segment = try await get(try newestSegment(channel: channel.number, rendition: "240p"))
            let file = try Tool.temporaryFile(segment.body, suffix: ".ts")
            defer { try? FileManager.default.removeItem(at: file) }

            // Median colour of a frame (not a flash frame: take one mid-second).
            let frame = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-vf", "select=eq(n\\,15)",
                                                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            try #require(frame.status == 0 && frame.stdout.count == 426 * 240 * 3, "\(frame.stderr)")
            let pixels = [UInt8](frame.stdout)
            func median(_ offset: Int) -> Int {
                let values = stride(from: offset, to: pixels.count, by: 3).map { Int(pixels[$0]) }.sorted()
                return values[values.count / 2]
            }
            let expected = try #require(channel.rgb)
            let seen = (median(0), median(1), median(2))
            let distance = abs(seen.0 - Int(expected.red)) + abs(seen.1 - Int(expected.green)) + abs(seen.2 - Int(expected.blue))
            #expect(distance < 45, "channel \(channel.number) shows \(seen), expected \(channel.colour)")

            // The strongest of all the catalog's tones is this channel's.
            let audio = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-vn", "-ac", "1", "-ar", "48000",
                                                "-f", "f32le", "-"])
            let samples = audio.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            #expect(samples.count > 48_000)
            let tones = catalog.channels.flatMap { $0.audio.map(\.toneHz) }
            let strongest = tones.max { goertzelPower(samples, frequency: Double($0), sampleRate: 48_000)
                < goertzelPower(samples, frequency: Double($1), sampleRate: 48_000) }
            #expect(strongest == channel.audio[0].toneHz, "channel \(channel.number)")
        }
    }

    @Test func syncChannelFlashesAndBeepsTogetherEverySecond() async throws {
        let sync = try #require(catalog.channels.first { $0.syncFlash != nil })
        let beep = try #require(sync.syncFlash)
        let segment = try await get(try newestSegment(channel: sync.number, rendition: "240p"))
        let file = try Tool.temporaryFile(segment.body, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: file) }

        // Flashes: frames whose mean luma is near white, at their presentation times.
        let frames = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let bytes = [UInt8](frames.stdout)
        let frameSize = 426 * 240
        let means = stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
            bytes[start..<start + frameSize].reduce(0) { $0 + Int($1) } / frameSize
        }
        let videoTimes = try await frameTimes(file, stream: "v:0")
        try #require(videoTimes.count == means.count)
        let flashes = means.indices.filter { means[$0] > 200 }.map { videoTimes[$0] }
        #expect(flashes.count == 2, "luma per frame: \(means)")

        // Beeps: the 10 ms windows with the most energy at the beep frequency.
        let audio = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-vn", "-ac", "1", "-ar", "48000",
                                            "-f", "f32le", "-"])
        let samples = audio.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let audioStart = try #require(try await frameTimes(file, stream: "a:0").first)
        let window = 48 * beep.beepMs
        let powers = stride(from: 0, to: samples.count - window, by: 48).map { start in
            (start, goertzelPower(Array(samples[start..<start + window]), frequency: Double(beep.beepHz), sampleRate: 48_000))
        }
        let loudest = powers.map(\.1).max() ?? 0
        var beeps: [Double] = []
        for (start, power) in powers where power > loudest / 2 {
            let time = audioStart + Double(start) / 48_000
            if let last = beeps.last, time - last < 0.5 { continue }
            beeps.append(time)
        }
        #expect(beeps.count == 2, "beeps at \(beeps)")
        // Between beeps (30 ms clear of each) there is next to nothing at that frequency.
        let quiet = powers.filter { start, _ in
            let time = audioStart + Double(start) / 48_000
            return beeps.allSatisfy { abs(time - $0) > 0.03 }
        }.map(\.1).max() ?? 0
        #expect(loudest > 100 * quiet, "beep \(loudest), between beeps \(quiet)")

        // Together: each beep starts with a flash, within a frame.
        for (flash, beepTime) in zip(flashes, beeps) {
            #expect(abs(flash - beepTime) < 0.034, "flash at \(flash) s, beep at \(beepTime) s")
        }
        if flashes.count == 2 { #expect(abs(flashes[1] - flashes[0] - 1) < 0.001) }
    }

    @Test func servesLineupGuideLogosAndTheChannelTable() async throws {
        let table = try await get("/channels.json")
        #expect(try JSONDecoder().decode(ChannelCatalog.self, from: Data(table.body)) == catalog)

        let lineup = try await get("/demo.m3u").text
        #expect(lineup.hasPrefix("#EXTM3U url-tvg=\"http://127.0.0.1:\(origin.port)/guide.xml\""))
        for channel in catalog.channels {
            #expect(lineup.contains("tvg-chno=\"\(channel.number)\""))
            let logo = try await get("/logos/\(channel.number).png")
            #expect(logo.status == 200 && logo.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }

        // XMLTV: every channel has a programme on now, and one next, with all fields.
        let guide = try await get("/guide.xml")
        let parsed = try GuideSummary(data: Data(guide.body))
        let now = Date()
        for channel in catalog.channels {
            let programmes = parsed.programmes.filter { $0.channel == channel.id }.sorted { $0.start < $1.start }
            let current = try #require(programmes.firstIndex { $0.start <= now && now < $0.stop }, "channel \(channel.number) has nothing on now")
            #expect(programmes.indices.contains(current + 1))
            for programme in programmes {
                #expect(!programme.title.isEmpty && !programme.subTitle.isEmpty && !programme.desc.isEmpty && !programme.rating.isEmpty)
            }
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let connection = try RawHTTPConnection(port: origin.port)
        let a = try connection.request("GET", "/ch/4/master.m3u8")
        let b = try connection.request("GET", "/ch/4/240p/index.m3u8")
        let c = try connection.request("HEAD", "/ch/4/master.m3u8")
        #expect(a.status == 200 && b.status == 200 && c.status == 200)
        #expect(c.body.isEmpty && c.contentLength == a.body.count)
    }

    @Test func onlyLoopbackAndUnknownPathsAre404() async throws {
        #expect(try await get("/ch/99/master.m3u8").status == 404)
        #expect(try await get("/ch/1/4k/index.m3u8").status == 404)
        #expect(try await get("/ch/1/1080p/1.ts").status == 404)  // long expired
        #expect(try await get("/etc/passwd").status == 404)
    }
}
}

/// The programmes of an XMLTV document.
struct GuideSummary {
    struct Programme {
        var channel = ""
        var start = Date.distantPast
        var stop = Date.distantPast
        var title = ""
        var subTitle = ""
        var desc = ""
        var rating = ""
    }

    var programmes: [Programme] = []

    init(data: Data) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse() else { throw delegate.error ?? RawHTTPConnection.Failure(description: "XMLTV did not parse") }
        programmes = delegate.programmes
    }

    static func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMddHHmmss Z"
        return formatter.date(from: text) ?? .distantPast
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var programmes: [Programme] = []
        var current: Programme?
        var text = ""
        var error: (any Error)?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            if name == "programme" {
                current = Programme(channel: attributes["channel"] ?? "", start: GuideSummary.date(attributes["start"] ?? ""),
                                    stop: GuideSummary.date(attributes["stop"] ?? ""))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "title": current?.title = text
            case "sub-title": current?.subTitle = text
            case "desc": current?.desc = text
            case "value": current?.rating = text
            case "programme": if let current { programmes.append(current) }; current = nil
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { error = parseError }
    }
}
