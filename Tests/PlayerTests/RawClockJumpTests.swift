import Foundation
import OriginKit
import Testing
import TestSupport

/// A raw MPEG-TS stream whose clock jumps inside one connection, as a restarted encoder's
/// does (`/shapes/raw/play/clock-jumps`: an hour on, then back, every three segments):
/// the real binary's picture and sound carry on over both jumps, with no stall and no retune.
extension ZapperPlaybackTests {
    @Test func aRawStreamWhoseClockJumpsPlaysOn() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.channel(number: OriginRouter.rawChannel))
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"1\",Jumps\nhttp://127.0.0.1:\(origin.port)/shapes/raw/\(OriginRouter.rawJumpPath)\n"
        // The first segment comes at once: the jumps come within two spans of three segments.
        let span = Int(OriginRouter.rawJumpSegments) * catalog.segmentSeconds * 1000
        let run = try await runZapper(lineup: lineup, arguments: ["--size", "320x180", "--trace-frames"], script: """
            wait-event first-frame 20000
            wait \(2 * span + 2000)
            snapshot $DIR/after.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the stream's clock jumped (2 so far"), "\(run.stderr)")
        #expect(run.named(.stalled).isEmpty && run.named(.loadFailed).isEmpty && run.named(.frozen).isEmpty, "\(run.stderr)")
        #expect(run.named(.firstFrame).count == 1, "tuned once")

        // Pictures kept coming all along: no gap of half a second between two presented.
        let times = run.frames.map(\.milliseconds)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(times.count > (2 * span / 1000) * 20, "\(times.count) pictures")
        #expect((gaps.max() ?? .max) < 500, "a gap of \(gaps.max() ?? -1) ms between pictures")

        // After both jumps: the channel's picture, and its tone in the last two seconds.
        let path = try #require(run.snapshotPaths.first)
        #expect(try await showsChannel(path, OriginRouter.rawChannel))
        let left = leftSamples(run)
        #expect(left.count > (2 * span / 1000) * 48_000, "\(left.count / 48_000) s of sound")
        let last = Array(left.suffix(2 * 48_000))
        #expect(try strongestTone(last) == Double(channel.audio[0].toneHz))
        let level = (last.map { Double($0 * $0) }.reduce(0, +) / Double(max(last.count, 1))).squareRoot()
        #expect(level > 0.01, "the last two seconds are silent (RMS \(level))")
    }
}
