import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The real binary on the origin's `/shapes/lineup.m3u`: a channel with EXT-X-GAP
/// segments plays on over its gaps without requesting one, and a channel reached
/// through EXT-X-DEFINE (token by redirect, IMPORT, QUERYPARAM) plays its picture.
extension ZapperPlaybackTests {
    @Test func gapAndDefineChannelsPlay() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/lineup.m3u")
        try #require(lineup.status == 200)
        // Eight seconds on the gap channel: every fourth 2 s segment is a gap, so two pass.
        let zapper = try await LaunchedZapper(lineup: lineup.text, arguments: ["--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 8000
            snapshot $DIR/gap.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 1000
            snapshot $DIR/define.png
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel).prefix(2) == [1, 2], "\(run.stderr)")
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("gap.png").path, OriginRouter.gapChannel))
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("define.png").path, OriginRouter.defineChannel))
        let failures = run.named(.loadFailed)
        // A gap's URI answers 404: no such failure means none was requested.
        #expect(!failures.contains { $0.failure?.name == "http-404" }, "\(failures)")
        #expect(!failures.contains { $0.channel == 2 }, "\(failures)")
        // The gap channel's cue tags: both date ranges, and a CUE-OUT or CUE-IN among the segments played.
        let cues = run.events.compactMap { if case .cue(1, let cue) = $0.event { cue } else { nil } }
        // (A duration reads back from the logged duration_ms: 3_600_000 ms is 3600 s.)
        #expect(cues.contains(HLSCue(id: "programme-1", kind: .marker, duration: 3600, cueClass: "com.example.programme")), "\(cues)")
        #expect(cues.contains { $0.id == "splice-1" && $0.kind == .out && $0.duration == 60.294 }, "\(cues)")
        #expect(cues.contains { cue in
            guard cue.id.hasPrefix("seq-"), let sequence = Int64(cue.id.dropFirst(4)) else { return false }
            return cue.kind == (OriginRouter.cueTag(sequence) == "#EXT-X-CUE-IN" ? .in : .out)
        }, "\(cues)")
        #expect(Set(cues.map { "\($0.id) \($0.kind.rawValue)" }).count == cues.count, "each cue told once: \(cues)")
    }
}

/// The real binary on the origin's raw shapes (`/shapes/raw/`, none ending in `.ts`):
/// a raw MPEG-TS channel shows its picture; the one whose connection drops every few
/// seconds, warm before it is tuned, plays on over its reconnections; a web page, a DASH
/// manifest and an empty answer each fail at once, the reason in the log.
extension ZapperPlaybackTests {
    @Test func rawTSChannelsPlayAndTheRestFailAtOnce() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/lineup.m3u")
        try #require(lineup.status == 200)
        // Only the raw shapes: channels 3 (raw), 4 (drops), 5 (a page), 6 (a manifest), 7 (empty).
        let lines = lineup.text.split(separator: "\n").map(String.init)
        let raw = lines.indices.filter { lines[$0].contains("/shapes/raw/") }.flatMap { [lines[$0 - 1], lines[$0]] }
        try #require(raw.count == 10)
        let zapper = try await LaunchedZapper(lineup: (["#EXTM3U"] + raw).joined(separator: "\n") + "\n", arguments: ["--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 1000
            snapshot $DIR/raw.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait \(Int(OriginRouter.rawDropSeconds * 1000) + 2000)
            snapshot $DIR/dropped.png
            press KEY_CHANNELUP
            wait-event load-failed 5000
            press KEY_CHANNELUP
            wait-event load-failed 5000
            press KEY_CHANNELUP
            wait-event load-failed 5000
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel).prefix(2) == [3, 4], "\(run.stderr)")
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("raw.png").path, OriginRouter.rawChannel))
        // Past the drop of the connection it had when warm, and its reconnection.
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("dropped.png").path, OriginRouter.rawDropChannel))
        let failures = run.named(.loadFailed)
        #expect(!failures.contains { [3, 4].contains($0.channel) }, "\(failures)")
        #expect(!run.named(.stalled).contains { [3, 4].contains($0.channel) }, "\(run.stderr)")
        #expect(run.stderr.contains("channel 4: MPEG-TS stream") && run.stderr.contains("reconnecting in 0.5 s"), "\(run.stderr)")
        let tunes = run.tunes
        for (channel, words) in [5: "a web page (text/html)", 6: "a DASH manifest (.mpd)", 7: "an empty answer"] {
            let failure = try #require(failures.first { $0.channel == channel }, "\(failures)")
            #expect(failure.failure?.name == "unsupported" && (failure.failure?.detail ?? "").contains(words), "\(failure)")
            // At once: well within a second or two of its tune, never the no-picture watch.
            let tuned = try #require(tunes.last { $0.channel == channel }?.milliseconds)
            let failed = failure.milliseconds
            #expect(failed - tuned < 2000, "channel \(channel) failed \(failed - tuned) ms after its tune")
        }
    }
}
