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
        let lineup = try RawHTTPConnection.fetch(port: origin.port, "GET", "/shapes/lineup.m3u")
        try #require(lineup.status == 200)
        // Eight seconds on the gap channel: every fourth 2 s segment is a gap, so two pass.
        let zapper = try LaunchedZapper(lineup: lineup.text, arguments: ["--size", "320x180"], script: """
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
        #expect(run.named(.firstFrame).compactMap { $0["channel"] as? Int }.prefix(2) == [1, 2], "\(run.stderr)")
        #expect(try showsChannel(zapper.directory.appendingPathComponent("gap.png").path, OriginRouter.gapChannel))
        #expect(try showsChannel(zapper.directory.appendingPathComponent("define.png").path, OriginRouter.defineChannel))
        let failures = run.named(.loadFailed)
        // A gap's URI answers 404: no such failure means none was requested.
        #expect(!failures.contains { $0["kind"] as? String == "http-404" }, "\(failures)")
        #expect(!failures.contains { $0["channel"] as? Int == 2 }, "\(failures)")
        // The gap channel's cue tags: both date ranges, and a CUE-OUT or CUE-IN among the segments played.
        let cues = run.named(.cue).filter { $0["channel"] as? Int == 1 }
        #expect(cues.contains { $0["id"] as? String == "programme-1" && $0["kind"] as? String == "marker"
                && $0["duration_ms"] as? Int == 3_600_000 && $0["class"] as? String == "com.example.programme" }, "\(cues)")
        #expect(cues.contains { $0["id"] as? String == "splice-1" && $0["kind"] as? String == "out" && $0["duration_ms"] as? Int == 60_294 }, "\(cues)")
        #expect(cues.contains { cue in
            guard let id = cue["id"] as? String, id.hasPrefix("seq-"), let sequence = Int64(id.dropFirst(4)) else { return false }
            return cue["kind"] as? String == (OriginRouter.cueTag(sequence) == "#EXT-X-CUE-IN" ? "in" : "out")
        }, "\(cues)")
        #expect(Set(cues.map { "\($0["id"] ?? "") \($0["kind"] ?? "")" }).count == cues.count, "each cue told once: \(cues)")
    }
}
