import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperMedia

/// Broadcast subtitles as the origin writes them, read back in memory by the player's own
/// demuxer and decoders: DVB subtitles (libavcodec's dvbsub both ways) and teletext subtitles
/// (`TeletextPES` by hand, libzvbi's decoder in libavcodec), each page on screen from its time
/// until the next clears it. (ffmpeg muxes each beside a sound, as the origin does.)
@Suite struct SubtitleRoundTripTests {
    /// The pages of the written stream through `Demuxer` and `BitmapSubtitleDecoder`.
    func readBack(_ job: DVBSubtitleJob) throws -> (streams: [SubtitleStream], pages: [SubtitleBitmapQueue.Timed]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("subtitles-\(UUID().uuidString).ts").path
        let muxed = path + ".muxed.ts"
        defer { for file in [path, muxed] { try? FileManager.default.removeItem(atPath: file) } }
        try DVBSubtitleWriter.write(job, to: path)
        // Beside a sound, as the origin muxes it (the player's demuxer wants a picture or a sound).
        let mux = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo", "-i", path, "-t", "8",
                                          "-map", "0:a", "-map", "1:s", "-c:a", "mp2", "-c:s", "copy", "-copyts", "-muxdelay", "0",
                                          "-muxpreload", "0", "-f", "mpegts", muxed])
        try #require(mux.status == 0, "\(mux.stderr)")
        let queue = ByteQueue()
        queue.append(try Data(contentsOf: URL(fileURLWithPath: muxed)))
        queue.finish()
        let demuxer = try Demuxer(queue: queue)
        let streams = demuxer.subtitleStreams
        let chosen = try #require(streams.first)
        demuxer.selectSubtitles(chosen.index)
        let decoder = try BitmapSubtitleDecoder(demuxer.parameters[chosen.index], teletextPage: chosen.teletextPage)
        var pages: [SubtitleBitmapQueue.Timed] = []
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == chosen.index else { continue }
            if let page = try decoder.decode(packet, timeBase: demuxer.timeBase(stream: packet.streamIndex)) { pages.append(page) }
        }
        return (streams, pages)
    }

    /// The share of a region's pixels that are near white (premultiplied BGRA).
    func whiteShare(_ region: SubtitleBitmap.Region) -> Double {
        let white = stride(from: 0, to: region.pixels.count, by: 4).filter {
            region.pixels[$0] > 200 && region.pixels[$0 + 1] > 200 && region.pixels[$0 + 2] > 200 && region.pixels[$0 + 3] > 200
        }.count
        return Double(white) / Double(region.width * region.height)
    }

    @Test func teletextSubtitlesComeBackAsTheirPageAtTheBottom() throws {
        let job = DVBSubtitleJob(teletextPage: 0x888, startPTS: 90_000, language: "eng",
                                 pages: [.init(start: 1, end: 3, text: "HELLO TELETEXT"), .init(start: 4, end: 6, text: "SECOND ONE")])
        let (streams, pages) = try readBack(job)
        #expect(streams.map(\.teletextPage) == [0x888] && streams.map(\.language) == ["eng"], "\(streams)")
        let shown = pages.filter { !$0.bitmap.regions.isEmpty }
        #expect(shown.map { Int(($0.start * 10).rounded()) } == [20, 50], "pages at \(pages.map(\.start)) (1 s in and the PTS's 1 s)")
        let page = try #require(shown.first?.bitmap)
        let region = try #require(page.regions.first)
        // The text's row is at the bottom of the page (rows 22-23 of 25), drawn white.
        let rows = region.height / 10
        let bottom = SubtitleBitmap.Region(x: 0, y: 0, width: region.width, height: 20,
                                           pixels: Array(region.pixels[(region.width * (rows - 2) * 10 * 4)...].prefix(region.width * 20 * 4)))
        let top = SubtitleBitmap.Region(x: 0, y: 0, width: region.width, height: 100, pixels: Array(region.pixels.prefix(region.width * 100 * 4)))
        #expect(whiteShare(bottom) > 0.02, "the subtitle row: \(whiteShare(bottom))")
        #expect(whiteShare(top) == 0, "above it, the page is clear")
        #expect(page.canvasHeight == region.y + region.height)
        // Between the two pages, and after the second, empty pages clear the screen.
        #expect(pages.contains { $0.bitmap.regions.isEmpty && abs($0.start - 4) < 0.05 }, "\(pages.map { ($0.start, $0.bitmap.regions.count) })")
    }

    @Test func dvbSubtitlesComeBackAtTheirPlaceOnTheCanvas() throws {
        let bitmap = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(UUID().uuidString).gray")
        defer { try? FileManager.default.removeItem(at: bitmap) }
        // A 64x16 page: a white bar in its middle rows.
        try Data((0..<16).flatMap { row in [UInt8](repeating: (6..<10).contains(row) ? 255 : 0, count: 64) }).write(to: bitmap)
        let job = DVBSubtitleJob(startPTS: 90_000, language: "deu",
                                 pages: [.init(start: 1, end: 3, x: 100, y: 480, width: 64, height: 16, bitmap: bitmap.path)])
        let (streams, pages) = try readBack(job)
        #expect(streams.map(\.codecName) == ["dvb_subtitle"] && streams.map(\.language) == ["deu"])
        let shown = try #require(pages.first { !$0.bitmap.regions.isEmpty })
        #expect(abs(shown.start - 2) < 0.05)
        let region = try #require(shown.bitmap.regions.first)
        #expect((region.x, region.y, region.width, region.height) == (100, 480, 64, 16))
        #expect(abs(whiteShare(region) - 0.25) < 0.02, "\(whiteShare(region))")
        #expect(pages.contains { $0.bitmap.regions.isEmpty && abs($0.start - 4) < 0.05 } || shown.end.map { abs($0 - 4) < 0.05 } == true)
    }
}
