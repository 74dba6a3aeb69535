import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// Every origin fault is survived by the player: a `load-failed` while it lasts,
/// and after it is cleared the picture comes back on its own (`load-recovered`),
/// with no restart. Its own origin, so no other test sees the faults.
extension ZapperPlaybackTests {
    static let faults = ["segment-404", "playlist-5xx", "stall", "reset=0.3", "outage", "truncate=0.3"]

    @Test(arguments: faults)
    func survivesAndRecoversFrom(fault: String) async throws {
        let origin = try await OriginProcess.start()
        defer { origin.stop() }
        let channel = 2
        let catalog = try Repo.catalog()
        let colour = try #require(catalog.channel(number: channel)?.rgb)
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(channel)", "--size", "640x360"], script: """
            wait-event first-frame 20000
            wait-event load-failed 40000
            wait-event load-recovered 60000
            wait 1500
            snapshot $DIR/after.png
            quit
            """)
        let run = try await zapper.fault(fault, on: channel, of: origin, after: .firstFrame, clearingAfter: 3)

        #expect(run.status == 0, "\(fault): \(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let names = run.names
        #expect(names.filter { $0 == .tune }.count == 1, "no restart: \(names)")
        let firstFailure = try #require(names.firstIndex(of: .loadFailed))
        let recovery = try #require(names.lastIndex(of: .loadRecovered), "\(fault): \(run.stderr)")
        #expect(firstFailure < recovery)
        let path = try #require(run.snapshotPaths.first)
        let seen = try await medianColour(path)
        let distance = abs(seen.0 - Int(colour.red)) + abs(seen.1 - Int(colour.green)) + abs(seen.2 - Int(colour.blue))
        #expect(distance < 45, "\(fault): after recovery the snapshot median is \(seen)")
    }
}

extension PanelTests {
    /// An outage on a channel whose sound is a rendition of its own: both playlists
    /// fail (`load-failed`, `audio-failed`), and once it is cleared the picture and
    /// the sound come back on their own.
    @Test func separateAudioComesBackAfterAnOutage() async throws {
        let origin = try await OriginProcess.start()
        defer { origin.stop() }
        let channel = try #require(try Repo.catalog().channel(number: SplitAudio.channels[0]))
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"\(channel.number)\",Split\nhttp://127.0.0.1:\(origin.port)/ch/\(channel.number)/\(SplitAudio.masterFile)\n"
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(channel.number)", "--size", "640x360"], script: """
            wait-event first-frame 20000
            wait-event load-failed 40000
            wait-event load-recovered 60000
            wait 4000
            quit
            """)
        let run = try await zapper.fault("outage", on: channel.number, of: origin, after: .firstFrame, clearingAfter: 3)
        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        #expect(run.named(.tune).count == 1, "no restart")
        #expect(!run.named(.audioFailed).isEmpty, "the audio rendition's failures are told")
        // The sound is back: the channel's tone in the last two seconds.
        let samples = pcm(run)
        try #require(samples.count > 3 * 96_000)
        let tail = samples[(samples.count - 2 * 96_000)...]
        #expect(tail.contains { abs($0) > 1000 }, "silence after the outage")
        #expect(try dominantTone(tail) == channel.audio[0].toneHz)
    }
}
