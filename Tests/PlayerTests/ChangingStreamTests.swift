import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// Streams that change as they play, through the real binary: a raw TS whose PMT and PIDs
/// change twice a loop (a headend reconfigured) plays on with no retune, and a multiplex
/// plays the programme its lineup entry names (`#EXTVLCOPT:program=N`), else its first.
extension ZapperPlaybackTests {
    @Test func aTSWhosePMTChangesPlaysOnWithoutARetune() async throws {
        let origin = try OriginProcess.shared.get()
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.broadcastChannels.first { $0.change?.kind == "pmt" })
        let change = try #require(channel.change)
        // 24 s: the loop's two changes (half way, and where it starts again) both come.
        let run = try await runZapper(lineup: try rawLineup([channel.number], port: origin.port),
                                      arguments: ["--channel", "\(channel.number)", "--size", "320x180", "--trace-frames"], script: """
            wait-event first-frame 20000
            wait 24000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.tune).count == 1 && run.named(.firstFrame).count == 1, "tuned again: \(run.named(.tune))")
        #expect(run.named(.loadFailed).isEmpty && run.named(.stalled).isEmpty, "\(run.named(.loadFailed)) \(run.named(.stalled))")
        #expect(run.stderr.components(separatedBy: "the stream's programme changed").count >= 3, "\(run.stderr)")
        // Pictures all along: no half second without one.
        let first = try #require(run.named(.firstFrame).first?.milliseconds)
        let times = run.frames.map(\.milliseconds).filter { $0 > first }
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect((gaps.max() ?? .max) < 500, "a gap of \(gaps.max() ?? -1) ms between pictures")
        // Both halves' sound: the old PIDs' tone and the new ones', each strongest in some second.
        let left = leftSamples(run)
        let seconds = stride(from: 0, to: left.count - 48_000, by: 48_000).map { Array(left[$0..<$0 + 48_000]) }
        let tones = try seconds.compactMap { try strongestBroadcastTone($0) }
        #expect(tones.contains(Double(channel.audio[0].toneHz)) && tones.contains(Double(change.toneHz)), "\(tones)")
    }

    @Test(arguments: [nil, 2] as [Int?])
    func aMultiplexPlaysTheProgrammeItsEntryNames(program: Int?) async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try #require(try Repo.catalog().broadcastChannels.first { $0.change?.kind == "multiplex" })
        let change = try #require(channel.change)
        let option = program.map { "#EXTVLCOPT:program=\($0)\n" } ?? ""
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"\(channel.number)\",\(channel.name)\n\(option)http://127.0.0.1:\(origin.port)/broadcast/\(channel.number).ts\n"
        let run = try await runZapper(lineup: lineup, arguments: ["--channel", "\(channel.number)"], script: """
            wait-event first-frame 20000
            wait 4000
            snapshot $DIR/multiplex.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let wanted = program == change.serviceID
        let colour = try #require(DemoChannel.rgbOf(wanted ? change.colour ?? "" : channel.colour))
        let path = try #require(run.snapshotPaths.first)
        let seen = try await medianColour(path, crop: Rect(x: 100, y: 120, width: 440, height: 80))
        #expect(abs(seen.0 - Int(colour.red)) + abs(seen.1 - Int(colour.green)) + abs(seen.2 - Int(colour.blue)) < 45,
                "programme \(program.map(String.init) ?? "first"): \(seen)")
        let tone = wanted ? change.toneHz : channel.audio[0].toneHz
        #expect(try strongestBroadcastTone(Array(leftSamples(run).suffix(2 * 48_000))) == Double(tone))
    }
}
