import Foundation
import Testing
import TestSupport

/// The real binary against the origin's hostile shapes (`/hostile/…`): each
/// poisoned playlist fails its channel at once with its line and reason on the
/// card, a segment that never ends is cut at its cap, overflowing subtitles,
/// a hostile logo, guide and lineup lines are refused, and the box plays on.
extension ZapperPlaybackTests {
    static let poisoned: [(channel: Int, says: String)] = [
        (2, "EXT-X-TARGETDURATION:inf"), (3, "EXT-X-TARGETDURATION:1e300"), (4, "EXT-X-MEDIA-SEQUENCE:9223372036854775807"),
        (5, "EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807"), (6, "byte range \"9223372036854775807@9223372036854775807\""),
        (7, "EXTINF:1e300"), (8, "TIME-OFFSET=1e308"), (9, "BANDWIDTH=9223372036854775807"),
    ]

    @Test func hostileShapesFailTheirChannelAndTheBoxPlaysOn() async throws {
        let origin = try OriginProcess.shared.get()
        let lineup = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/hostile/lineup.m3u").text
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Subtitles on for the shapes' channels (they share one tvg-id), so the hostile cues are read.
        try Data(#"{"schema":1,"subtitles":{"tvg:hostile":"en"}}"#.utf8).write(to: directory.appendingPathComponent("state.json"))
        var script = ["wait-event first-frame 20000"]
        for _ in 2...11 { script += ["press KEY_CHANNELUP", "wait-event interstitial-dismissed 20000", "wait 300"] }
        script += ["wait 3000", "press KEY_1", "wait-event first-frame 20000", "wait 500", "quit"]
        let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "1", "--size", "320x180", "--state-dir", directory.path],
                                        script: script.joined(separator: "\n"))
        var peak = 0
        while let now = zapper.peakResidentKilobytes { peak = max(peak, now); try await Task.sleep(for: .milliseconds(200)) }
        let run = await zapper.finish()

        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let failures = run.named(.loadFailed)
        let results = Dictionary(run.named(.interstitialDismissed).compactMap { event in
            event.channel.map { ($0, event.result?.rawValue ?? "") }
        }, uniquingKeysWith: { first, _ in first })
        for (channel, says) in Self.poisoned {
            let errors = failures.filter { $0.channel == channel }.compactMap { $0.failure?.detail }
            #expect(errors.contains { $0.contains(says) && $0.contains("/hostile/") }, "channel \(channel): \(errors)")
            #expect(results[channel] == "failed", "channel \(channel): \(results[channel] ?? "no card")")
        }
        // The endless segments are cut at their cap: the channel still shows its first picture, memory stays bounded.
        let shown = run.named(.firstFrame).compactMap(\.channel)
        #expect(shown.first == 1 && shown.last == 1 && shown.contains(10) && shown.contains(11), "\(shown)")
        #expect(peak > 0 && peak < 400_000, "peak RSS \(peak) kB")
        // Subtitles whose times and map overflow: the segment is refused with its reason, said once.
        let subtitles = run.named(.subtitlesFailed).compactMap { if case let .subtitlesFailed(_, error, _) = $0.event { error } else { nil } }
        #expect(subtitles.count == 1 && subtitles.first?.contains("X-TIMESTAMP-MAP") == true, "\(subtitles)")
        // Lineup lines: numbers that overflow renumbered, a local file refused; a hostile guide read in part.
        #expect(run.stderr.contains("tvg-chno \"99999999999999999999\" is not a free positive number"))
        #expect(run.stderr.contains("\"file:///etc/passwd\" uses file:, only http and https are allowed; skipped"))
        #expect(run.stderr.contains("programme start \"99999999999999999999\" is not an XMLTV time"))
    }
}
