import Foundation
import Testing
import OriginKit
import TestSupport

/// Each fault does what it says, on the wire, and goes away when cleared.
extension OriginOverHTTP {
@Suite struct Faults {
    let origin: OriginProcess

    /// An origin of this suite's own: the shared one serves the channels that the other
    /// targets' tests play meanwhile (they run in parallel), and a fault here would reach them.
    static let faulted = Result { try OriginProcess() }

    init() throws {
        origin = try Self.faulted.get()
    }

    func get(_ path: String, _ method: String = "GET") async throws -> RawHTTPConnection.Response {
        try await RawHTTPConnection.fetch(port: origin.port, method, path)
    }

    func control(_ method: String, _ channel: Int, _ spec: String = "") async throws -> RawHTTPConnection.Response {
        try await RawHTTPConnection.fetch(port: origin.port, method, "/control/faults/\(channel)", body: spec)
    }

    func newestSegment(_ channel: Int, _ rendition: String = "240p") async throws -> String {
        let playlist = try await get("/ch/\(channel)/\(rendition)/index.m3u8").text
        let last = playlist.split(separator: "\n").last { !$0.hasPrefix("#") }!
        return "/ch/\(channel)/\(rendition)/\(last)"
    }

    func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try await body()
        let elapsed = ContinuousClock.now - start
        return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test func segment404() async throws {
        let segment = try await newestSegment(5)
        #expect(try await control("PUT", 5, "segment-404").status == 200)
        #expect(try await get(segment).status == 404)
        #expect(try await get("/ch/5/240p/index.m3u8").status == 200)
        #expect(try await get("/ch/5/master.m3u8").status == 200)
        #expect(try await get(try newestSegment(6)).status == 200)  // other channels unaffected
        #expect(try await control("DELETE", 5).status == 200)
        #expect(try await get(segment).status == 200)
    }

    @Test func playlist5xx() async throws {
        let segment = try await newestSegment(5)
        #expect(try await control("PUT", 5, "playlist-5xx").status == 200)
        #expect(try await get("/ch/5/master.m3u8").status == 503)
        #expect(try await get("/ch/5/720p/index.m3u8").status == 503)
        #expect(try await get(segment).status == 200)
        #expect(try await control("PUT", 5, "playlist-5xx=500").status == 200)
        #expect(try await get("/ch/5/720p/index.m3u8").status == 500)
        #expect(try await control("DELETE", 5).status == 200)
        #expect(try await get("/ch/5/master.m3u8").status == 200)
        #expect(try await get("/ch/5/720p/index.m3u8").status == 200)
    }

    @Test func stalledPlaylistStopsAdvancingAndCatchesUpWhenCleared() async throws {
        #expect(try await control("PUT", 6, "stall").status == 200)
        let frozen = try await get("/ch/6/720p/index.m3u8").text
        try await Task.sleep(for: .milliseconds(4200))
        let still = try await get("/ch/6/720p/index.m3u8").text
        #expect(still == frozen)
        let live = try await get("/ch/7/720p/index.m3u8").text  // another channel moved on meanwhile
        #expect(sequence(live)! >= sequence(frozen)! + 2)
        #expect(try await control("DELETE", 6).status == 200)
        let resumed = try await get("/ch/6/720p/index.m3u8").text
        #expect(sequence(resumed)! >= sequence(frozen)! + 2)
    }

    func sequence(_ playlist: String) -> Int64? {
        playlist.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }
            .flatMap { Int64($0.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) }
    }

    @Test func bandwidthCapPacesTheBody() async throws {
        let segment = try await newestSegment(7)
        let size = try #require(try await get(segment, "HEAD").contentLength)
        // A cap that makes the segment take about 1.2 s.
        let rate = size * 10 / 12
        #expect(try await control("PUT", 7, "bandwidth=\(rate)").status == 200)
        let (capped, slow) = try await timed { try await get(segment) }
        #expect(capped.status == 200 && capped.ending == .complete && capped.body.count == size)
        #expect(slow >= 1.0, "\(size) bytes at \(rate) B/s took \(slow) s")
        #expect(try await control("DELETE", 7).status == 200)
        let (full, fast) = try await timed { try await get(segment) }
        #expect(full.body == capped.body)
        #expect(fast < slow / 2, "uncapped took \(fast) s, capped \(slow) s")
    }

    @Test func truncatedSegmentIsShortWithAMatchingLength() async throws {
        let segment = try await newestSegment(2)
        let full = try await get(segment)
        #expect(try await control("PUT", 2, "truncate=0.25").status == 200)
        let cut = try await get(segment)
        #expect(cut.status == 200 && cut.ending == .complete)
        #expect(cut.body.count == full.body.count / 4)
        #expect(cut.contentLength == cut.body.count)
        #expect(Array(full.body.prefix(cut.body.count)) == cut.body)
        #expect(try await control("DELETE", 2).status == 200)
        #expect(try await get(segment).body.count == full.body.count)
    }

    @Test func connectionResetMidBody() async throws {
        let segment = try await newestSegment(2, "1080p")
        let size = try #require(try await get(segment, "HEAD").contentLength)
        #expect(try await control("PUT", 2, "reset").status == 200)
        let broken = try await get(segment)
        #expect(broken.status == 200)
        #expect(broken.contentLength == size)  // announced in full …
        #expect(broken.body.count < size)      // … but not delivered
        #expect(broken.ending == .reset)
        #expect(try await control("DELETE", 2).status == 200)
        let whole = try await get(segment)
        #expect(whole.ending == .complete && whole.body.count == size)
    }

    @Test func wholeChannelOutage() async throws {
        #expect(try await control("PUT", 4, "outage").status == 200)
        for path in ["/ch/4/master.m3u8", "/ch/4/1080p/index.m3u8"] {
            let reply = try await get(path)
            #expect(reply.status == nil, "\(path) answered during an outage")
        }
        #expect(try await get("/ch/3/master.m3u8").status == 200)
        #expect(try await control("DELETE", 4).status == 200)
        #expect(try await get("/ch/4/master.m3u8").status == 200)
        #expect(try await get(try newestSegment(4)).status == 200)
    }

    @Test func addedDelayPerRequest() async throws {
        #expect(try await control("PUT", 3, "delay=1500").status == 200)
        let (delayed, slow) = try await timed { try await get("/ch/3/master.m3u8") }
        #expect(delayed.status == 200)
        #expect(slow >= 1.5)
        let (segment, slowSegment) = try await timed { try await get(try newestSegment(3)) }
        #expect(segment.status == 200 && slowSegment >= 3.0)  // the playlist and the segment both waited
        #expect(try await control("DELETE", 3).status == 200)
        let (_, fast) = try await timed { try await get("/ch/3/master.m3u8") }
        #expect(fast < 0.75)
    }

    @Test func controlEndpointListsAndRejects() async throws {
        #expect(try await control("PUT", 8, "delay=10,segment-404").status == 200)
        let listing = try await get("/control/faults").text
        #expect(listing.contains("8: segment-404,delay=10"))
        #expect(try await control("GET", 8).text.contains("segment-404"))
        let bad = try await control("PUT", 8, "explode")
        #expect(bad.status == 400 && bad.text.contains("unknown fault \"explode\""))
        #expect(try await control("GET", 8).text.contains("segment-404"))  // a bad request changes nothing
        #expect(try await control("PUT", 99, "outage").status == 404)
        #expect(try await RawHTTPConnection.fetch(port: origin.port, "DELETE", "/control/faults").status == 200)
        #expect(try await get("/control/faults").text == "no faults\n")
    }

    @Test func faultFromTheCommandLineUntilClearedOverHTTP() async throws {
        let second = try await OriginProcess.start(arguments: ["--fault", "2:segment-404,delay=200"])
        defer { second.stop() }
        let playlist = try await RawHTTPConnection.fetch(port: second.port, "GET", "/ch/2/240p/index.m3u8").text
        let last = playlist.split(separator: "\n").last { !$0.hasPrefix("#") }!
        #expect(try await RawHTTPConnection.fetch(port: second.port, "GET", "/ch/2/240p/\(last)").status == 404)
        #expect(try await RawHTTPConnection.fetch(port: second.port, "DELETE", "/control/faults/2").status == 200)
        #expect(try await RawHTTPConnection.fetch(port: second.port, "GET", "/ch/2/240p/\(last)").status == 200)
    }

    /// `freeze`: a segment's pictures are its first again and again, one for every fifth picture, at
    /// their times; the sound is untouched.
    @Test func freezeRepeatsTheSegmentsFirstPicture() async throws {
        let segment = try await newestSegment(1)
        let moving = try await get(segment)
        #expect(try await control("PUT", 1, "freeze").status == 200)
        let frozen = try await get(segment)
        // Another segment repeats the same picture (the one from when the freeze began).
        let next = segment.replacingOccurrences(of: "/\(segment.split(separator: "/").last!)", with: "/\(Int(segment.split(separator: "/").last!.dropLast(3))! - 1).ts")
        let later = try await get(next)
        #expect(try await control("DELETE", 1).status == 200)
        #expect(moving.status == 200 && frozen.status == 200)
        func frames(_ body: [UInt8], _ stream: String) async throws -> [Substring] {
            let file = try Tool.temporaryFile(body, suffix: ".ts")
            defer { try? FileManager.default.removeItem(at: file) }
            let run = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-map", "0:\(stream)", "-f", "framemd5", "-"])
            #expect(run.status == 0, "\(run.stderr)")
            // "stream, dts, pts, duration, size, md5"
            return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        }
        let before = try await frames(moving.body, "v")
        let after = try await frames(frozen.body, "v")
        #expect(before.count >= 48 && after.count == (before.count + 4) / 5, "\(before.count) pictures, then \(after.count)")
        #expect(Set(before.compactMap { $0.split(separator: ",").last }).count > 10)
        #expect(Set(after.compactMap { $0.split(separator: ",").last }).count == 1, "every picture the same")
        #expect(later.status == 200)
        let laterPictures = try await frames(later.body, "v").compactMap { $0.split(separator: ",").last }
        #expect(!laterPictures.isEmpty && laterPictures.allSatisfy { $0 == after.first?.split(separator: ",").last })
        #expect(try await frames(frozen.body, "a") == frames(moving.body, "a"), "the sound as it was")
    }
}
}
