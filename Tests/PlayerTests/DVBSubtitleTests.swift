import Foundation
import Testing
import TestSupport

/// A raw TS's DVB subtitles through the real binary: channel 102 carries Deutsch (its pages at
/// the bottom of the canvas) and English (higher up, between the channel's name and its bar).
/// Chosen in the Subtitles tab, or by `[subtitles] languages`, the chosen stream's pages are
/// drawn over the picture where their canvas puts them, and the other's never; with none
/// chosen, nothing is.
extension ZapperPlaybackTests {
    /// The share of near-white pixels in rows `rows` (fractions of the height) from a tenth to
    /// nine tenths of the width, leaving out the columns of the channel's moving white bar (white
    /// just above the lowest subtitles, where no subtitle is). The first run's hint ("Swipe up
    /// for more", white at the bottom) must have gone: it shows until 9 s after the first picture.
    func subtitleShare(_ path: String, rows: ClosedRange<Double>, width: Int = 1024, height: Int = 576) async throws -> Double {
        let pixels = try await rgb(path)
        try #require(pixels.count == width * height * 3, "\(path) is not \(width)x\(height)")
        func white(_ x: Int, _ y: Int) -> Bool {
            let at = (y * width + x) * 3
            return pixels[at] > 220 && pixels[at + 1] > 220 && pixels[at + 2] > 220
        }
        let barRow = Int(Double(height) * 0.66)
        let columns = (width / 10..<width * 9 / 10).filter { !white($0, barRow) && !white(max(0, $0 - 4), barRow) && !white(min(width - 1, $0 + 4), barRow) }
        let band = Int(Double(height) * rows.lowerBound)..<Int(Double(height) * rows.upperBound)
        let lit = band.reduce(0) { sum, y in sum + columns.filter { white($0, y) }.count }
        return Double(lit) / Double(max(1, band.count * columns.count))
    }

    /// A snapshot with subtitles off once the first run's hint has gone, then item `item` of the
    /// Subtitles tab chosen and a snapshot of its next page on screen, the panel closed.
    static func offThenChosen(item: Int) -> String {
        """
        wait-event first-frame 20000
        wait 10000
        snapshot $DIR/off.png
        press KEY_UP
        wait 600
        press KEY_RIGHT
        press KEY_RIGHT
        press KEY_RIGHT
        press KEY_UP
        \(Array(repeating: "press KEY_DOWN", count: item).joined(separator: "\n"))
        press KEY_ENTER
        press KEY_BACK
        press KEY_BACK
        wait-event panel-closed 3000
        wait-event subtitle 15000
        wait 400
        snapshot $DIR/chosen.png
        quit
        """
    }

    static let lowSubtitles = 0.84...0.95  // the first stream's pages (canvas rows 480-552)
    static let highSubtitles = 0.49...0.61  // the second's (rows 280-352)

    @Test func choosingDVBSubtitlesInThePanelShowsThatStreamsPages() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try broadcast(102)
        let english = try #require(channel.subtitles?.firstIndex { $0.language == "eng" })
        let run = try await runZapper(lineup: try rawLineup([102], port: origin.port), arguments: ["--channel", "102", "--size", "1024x576"], script: Self.offThenChosen(item: english + 1))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.subtitles).first?.language == "dvb:English", "\(run.named(.subtitles))")
        let pages = run.named(.subtitle)
        #expect(pages.allSatisfy { if case .subtitleBitmap(_, regions: 1, canvas: "720x576") = $0.event { true } else { false } }, "\(pages)")
        let shots = run.snapshotPaths
        try #require(shots.count == 2)
        let offLow = try await subtitleShare(shots[0], rows: Self.lowSubtitles), offHigh = try await subtitleShare(shots[0], rows: Self.highSubtitles)
        #expect(offLow < 0.001 && offHigh < 0.001, "with subtitles off: \(offLow) low, \(offHigh) high")
        let low = try await subtitleShare(shots[1], rows: Self.lowSubtitles), high = try await subtitleShare(shots[1], rows: Self.highSubtitles)
        #expect(high > 0.03, "English's pages are not drawn: \(high)")
        #expect(low < 0.001, "Deutsch's pages are drawn too: \(low)")
    }

    @Test func theBoxsSubtitleLanguagesChooseADVBStream() async throws {
        let origin = try OriginProcess.shared.get()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-dvbsub-\(UUID().uuidString).toml")
        try "[subtitles]\nlanguages = [\"fra\", \"deu\"]\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await runZapper(lineup: try rawLineup([102], port: origin.port),
                                      arguments: ["--channel", "102", "--size", "1024x576", "--config", file.path], script: """
            wait-event first-frame 20000
            wait 9500
            wait-event subtitle 15000
            wait 400
            snapshot $DIR/deutsch.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.subtitles).isEmpty, "nobody chose: \(run.named(.subtitles))")
        let path = try #require(run.snapshotPaths.first)
        let low = try await subtitleShare(path, rows: Self.lowSubtitles), high = try await subtitleShare(path, rows: Self.highSubtitles)
        #expect(low > 0.03, "Deutsch's pages are not drawn: \(low)")
        #expect(high < 0.001, "English's pages are drawn too: \(high)")
    }
}

/// Teletext subtitles (page 888 of channel 104's teletext PID, written by the origin as a
/// broadcaster sends them): listed as "English (teletext)", chosen in the Subtitles tab, the
/// page's boxed row drawn at the bottom of the screen by libzvbi's decoder.
extension ZapperPlaybackTests {
    @Test func choosingTeletextSubtitlesShowsTheirPageAtTheBottom() async throws {
        let origin = try OriginProcess.shared.get()
        let run = try await runZapper(lineup: try rawLineup([104], port: origin.port), arguments: ["--channel", "104", "--size", "1024x576"], script: Self.offThenChosen(item: 1))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.subtitles).first?.language == "dvb:English (teletext)", "\(run.named(.subtitles))")
        #expect(run.named(.subtitle).allSatisfy { if case .subtitleBitmap(_, regions: 1, _) = $0.event { true } else { false } }, "\(run.named(.subtitle))")
        let shots = run.snapshotPaths
        try #require(shots.count == 2)
        let bottom = 0.88...0.96
        let off = try await subtitleShare(shots[0], rows: bottom), on = try await subtitleShare(shots[1], rows: bottom)
        #expect(off < 0.001, "with subtitles off: \(off)")
        #expect(on > 0.01, "the teletext row is not drawn: \(on)")
        #expect(try await subtitleShare(shots[1], rows: 0.47...0.6) < 0.001, "nothing but the row is drawn")
    }
}
