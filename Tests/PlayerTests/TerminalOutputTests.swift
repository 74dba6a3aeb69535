import Foundation
import Testing
import TestSupport

/// What a person reading the terminal sees: FFmpeg's own warnings come through zapper's log,
/// named by what logged them and each kind once, never raw (`[mpegts @ 0x…]`).
extension ZapperPlaybackTests {
    @Test func ffmpegsWarningsComeThroughOurLogEachKindOnce() async throws {
        // Segments cut short: the demuxer and the decoders complain about each of them.
        let origin = try await OriginProcess.start(arguments: ["--fault", "2:truncate=0.6"])
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"2\",Cut short\nhttp://127.0.0.1:\(origin.port)/ch/2/master.m3u8\n"
        let run = try await runZapper(lineup: lineup, arguments: ["--channel", "2", "--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 8000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("[") || $0.contains(" @ 0x") }, "raw FFmpeg output: \(run.stderr)")
        let ffmpeg = lines.filter { $0.hasPrefix("zapper: ffmpeg: ") }
        #expect(!ffmpeg.isEmpty, "four segments cut short and FFmpeg said nothing: \(run.stderr)")
        // Named by what logged it, and each kind once (its numbers aside).
        #expect(ffmpeg.allSatisfy { line in ["mpegts: ", "h264: ", "aac: "].contains { line.dropFirst("zapper: ffmpeg: ".count).hasPrefix($0) } },
                "\(ffmpeg)")
        let kinds = ffmpeg.map { $0.replacing(/[0-9]+/, with: "#") }
        #expect(Set(kinds).count == kinds.count, "\(ffmpeg)")
        #expect(!ffmpeg.contains { $0.hasSuffix(": .") }, "a line in pieces: \(ffmpeg)")
    }
}
