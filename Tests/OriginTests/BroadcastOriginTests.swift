import Foundation
import OriginKit
import Testing
import TestSupport

/// The origin's broadcast channels and its HDHomeRun, over real HTTP on loopback: what a
/// headend or a tuner hands over (raw MPEG-TS with the PMT's languages and audio types,
/// interlaced and anamorphic pictures, 5.1, radio), and a two-tuner device's lineup and 503.
extension OriginOverHTTP {
@Suite struct Broadcast {
    let origin: OriginProcess
    let catalog: ChannelCatalog

    init() throws {
        origin = try OriginProcess.shared.get()
        catalog = try Repo.catalog()
    }

    func get(_ path: String) async throws -> RawHTTPConnection.Response {
        try await RawHTTPConnection.fetch(port: origin.port, "GET", path)
    }

    struct Probed: Decodable {
        struct Stream: Decodable {
            var codec_name: String
            var codec_type: String
            var width: Int?
            var height: Int?
            var field_order: String?
            var sample_aspect_ratio: String?
            var channels: Int?
            var tags: [String: String]?
            var disposition: [String: Int]?
            var nb_read_packets: String?
        }
        var streams: [Stream]
    }

    func probe(_ bytes: [UInt8]) async throws -> [Probed.Stream] {
        let file = try Tool.temporaryFile(bytes, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Tool.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                    "stream=codec_name,codec_type,width,height,field_order,sample_aspect_ratio,channels,nb_read_packets:stream_tags=language:stream_disposition=visual_impaired",
                                                    "-of", "json", file.path])
        #expect(result.status == 0, "ffprobe: \(result.stderr)")
        return try JSONDecoder().decode(Probed.self, from: result.stdout).streams
    }

    /// Each broadcast channel's newest HLS segment is what its catalog entry says.
    @Test func everyBroadcastChannelIsWhatItsEntrySays() async throws {
        let channels = catalog.broadcastChannels
        #expect(channels.count >= 6)
        for channel in channels where channel.change?.kind != "multiplex" {
            let playlist = try await get("/broadcast/\(channel.number)/index.m3u8")
            #expect(playlist.status == 200)
            let last = try #require(playlist.text.split(separator: "\n").last { !$0.hasPrefix("#") })
            let segment = try await get("/broadcast/\(channel.number)/\(last)")
            #expect(segment.status == 200 && segment.headers["content-type"] == "video/mp2t")
            let streams = try await probe(segment.body)
            let video = streams.filter { $0.codec_type == "video" }
            let audio = streams.filter { $0.codec_type == "audio" }
            if let wanted = channel.video {
                let seen = try #require(video.first, "channel \(channel.number) has no picture")
                #expect(seen.codec_name == (wanted.codec == "mpeg2" ? "mpeg2video" : "h264"))
                #expect(seen.width == wanted.width && seen.height == wanted.height)
                #expect(seen.sample_aspect_ratio == wanted.sar, "channel \(channel.number)")
                #expect((seen.field_order == "tt") == wanted.interlaced, "channel \(channel.number): \(seen.field_order ?? "-")")
            } else {
                #expect(video.isEmpty, "a radio channel has no picture")
            }
            #expect(audio.map(\.codec_name) == channel.audio.map { $0.codec == "latm" ? "aac_latm" : $0.codec })
            #expect(audio.map { $0.tags?["language"] } == channel.audio.map(\.language))
            #expect(audio.map { $0.disposition?["visual_impaired"] == 1 } == channel.audio.map { $0.description == true })
            #expect(audio.map(\.channels) == channel.audio.map(\.channels))
            // DVB subtitles: every segment holds each stream's page on screen (a tuner joined anywhere shows it).
            let subtitles = streams.filter { $0.codec_type == "subtitle" }
            #expect(subtitles.map(\.codec_name) == (channel.subtitles ?? []).map { $0.teletext == nil ? "dvb_subtitle" : "dvb_teletext" },
                    "channel \(channel.number)")
            #expect(subtitles.map { $0.tags?["language"] } == (channel.subtitles ?? []).map(\.language))
            #expect(subtitles.allSatisfy { Int($0.nb_read_packets ?? "") ?? 0 > 0 }, "channel \(channel.number): \(subtitles.map(\.nb_read_packets))")
        }
    }

    @Test func theBroadcastLineupsListEveryChannelAndMarkTheRadio() async throws {
        let raw = try await get("/broadcast.m3u").text
        let hls = try await get("/broadcast-hls.m3u").text
        for channel in catalog.broadcastChannels {
            #expect(raw.contains("/broadcast/\(channel.number).ts"))
            #expect(hls.contains("/broadcast/\(channel.number)/index.m3u8") == (channel.change?.kind != "multiplex"))
            let line = try #require(raw.split(separator: "\n").first { $0.contains("tvg-chno=\"\(channel.number)\"") })
            #expect(line.contains("radio=\"true\"") == channel.isRadio)
        }
    }

    /// The PMT channel's loop: its second half on other PIDs and its other tone; the multiplex: two programmes.
    @Test func theChangingStreamsChangeAsTheyShould() async throws {
        let changing = try #require(catalog.broadcastChannels.first { $0.change?.kind == "pmt" })
        let playlist = try await get("/broadcast/\(changing.number)/index.m3u8").text
        var pids = Set<String>()
        for name in playlist.split(separator: "\n").filter({ !$0.hasPrefix("#") }) {
            let file = try Tool.temporaryFile(try await get("/broadcast/\(changing.number)/\(name)").body, suffix: ".ts")
            defer { try? FileManager.default.removeItem(at: file) }
            let ids = try await Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=id", "-of", "csv=p=0", file.path])
            pids.formUnion(String(decoding: ids.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init))
        }
        // The live window (six of the loop's ten segments) holds one PID set or both, never a third.
        #expect(pids.isSubset(of: ["0x100", "0x101", "0x200", "0x201"]) && !pids.isEmpty, "\(pids)")
        let multiplex = try #require(catalog.broadcastChannels.first { $0.change?.kind == "multiplex" })
        let slices = try await get("/broadcast/\(multiplex.number)/index.m3u8").text
        let newest = try #require(slices.split(separator: "\n").last { !$0.hasPrefix("#") })
        let slice = try Tool.temporaryFile(try await get("/broadcast/\(multiplex.number)/\(newest)").body, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: slice) }
        let programs = try await Tool.run("ffprobe", ["-v", "error", "-show_entries", "program=program_num,nb_streams", "-of", "csv=p=0", slice.path])
        let listed = String(decoding: programs.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }.sorted()
        #expect(listed == ["1,2", "\(multiplex.change!.serviceID!),2"])
    }

    @Test func theHDHomeRunDescribesItselfAndItsLineup() async throws {
        let discover = try JSONSerialization.jsonObject(with: Data(await get("/hdhomerun/discover.json").body)) as? [String: Any]
        #expect(discover?["TunerCount"] as? Int == OriginRouter.tunerCount)
        let lineupURL = try #require(discover?["LineupURL"] as? String)
        #expect(lineupURL == "http://127.0.0.1:\(origin.port)/hdhomerun/lineup.json")
        let lineup = try #require(try JSONSerialization.jsonObject(with: Data(await get("/hdhomerun/lineup.json").body)) as? [[String: Any]])
        #expect(lineup.compactMap { $0["GuideNumber"] as? String } == catalog.broadcastChannels.map { "\($0.number)" })
        #expect(lineup.compactMap { $0["URL"] as? String }.allSatisfy { $0.contains("/hdhomerun/auto/v") })
    }

    /// Two tuners: a third stream is refused with 503 while two flow, and a tuner is free again
    /// as soon as its connection closes. (An origin of its own: its tuners are nobody else's.)
    @Test func aThirdStreamGets503UntilATunerIsFree() async throws {
        let own = try await OriginProcess.start()
        let number = try #require(catalog.broadcastChannels.first?.number)
        try await offPool {
            func status() throws -> [[String: Any]] {
                let body = try RawHTTPConnection.fetch(port: own.port, "GET", "/hdhomerun/status.json").body
                return (try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]]) ?? []
            }
            var held: [RawHTTPConnection] = []
            for _ in 0..<OriginRouter.tunerCount {
                let connection = try RawHTTPConnection(port: own.port)
                #expect(try connection.request("GET", "/hdhomerun/auto/v\(number)").status == 200)
                held.append(connection)
            }
            let busy = try RawHTTPConnection.fetch(port: own.port, "GET", "/hdhomerun/auto/v\(number)")
            #expect(busy.status == 503)
            #expect(busy.text.contains("All Tuners In Use"))
            #expect(try status().compactMap { $0["VctNumber"] as? String } == ["\(number)", "\(number)"])
            held.removeLast()
            let deadline = Date().addingTimeInterval(2)
            while try status().allSatisfy({ $0["VctNumber"] != nil }), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            #expect(try status().contains { $0["VctNumber"] == nil }, "a tuner is free within 2 s of its connection closing")
            let connection = try RawHTTPConnection(port: own.port)
            #expect(try connection.request("GET", "/hdhomerun/auto/v\(number)").status == 200)
            held.append(connection)
        }
    }
}
}
