import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// Closed captions end to end: the origin's channel 10 carries CEA-608 CC1 and CEA-708
/// service 1 (each with a script of its own) in its H.264 SEI (written by
/// zapper-caption-encode through libx264); the real zapper decodes them (608 with
/// libavcodec, 708 with its own decoder) and draws them like subtitles.
@Suite(.timeLimit(.minutes(30)))
struct CaptionPlaybackTests {
    let playback = ZapperPlaybackTests()
    static let channel = 10

    /// A caption track's script as the catalog has it (0: CC1, 1: SERVICE1): each caption's
    /// rows joined by "\n", and the track's INSTREAM-ID.
    func script(track index: Int = 0) throws -> (lines: [String], instream: String) {
        let channel = try #require(try Repo.catalog().channel(number: Self.channel))
        let track = try #require(channel.captions.flatMap { $0.indices.contains(index) ? $0[index] : nil })
        return (track.script.map { $0.joined(separator: "\n") }, track.instream)
    }

    /// Of the screen's bottom third in a 1280x720 snapshot, the share of pixels far from the channel's colour.
    func markedShare(_ path: String) async throws -> Double {
        let expected = try #require(try Repo.catalog().channel(number: Self.channel)?.rgb)
        let raw = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf", "crop=1280:240:0:480",
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(raw.status == 0 && !raw.stdout.isEmpty, "\(raw.stderr)")
        let bytes = [UInt8](raw.stdout)
        var far = 0
        for index in stride(from: 0, to: bytes.count - 2, by: 3) {
            let distance = abs(Int(bytes[index]) - Int(expected.red)) + abs(Int(bytes[index + 1]) - Int(expected.green))
                + abs(Int(bytes[index + 2]) - Int(expected.blue))
            if distance > 150 { far += 1 }
        }
        return Double(far) / Double(bytes.count / 3)
    }

    /// The panel's Subtitles tab offers CC1 and SERVICE1 (the master's CLOSED-CAPTIONS)
    /// beside Off; chosen, the track's text comes as `subtitle` events, in its script's order
    /// (the other track's never), and is drawn over the bottom of the picture, which is plain
    /// again between two captions.
    @Test(arguments: [0, 1])
    func choosingATrackShowsItsCaptions(track: Int) async throws {
        let (lines, instream) = try script(track: track)
        let downs = String(repeating: "press KEY_DOWN\n", count: track + 1)
        let run = try await LaunchedZapper(lineup: try playback.demoLineup(), arguments: ["--channel", "\(Self.channel)", "--size", "1280x720"],
                                           script: """
            wait-event first-frame 20000
            wait 1000
            press KEY_UP
            wait 300
            press KEY_RIGHT
            press KEY_RIGHT
            press KEY_RIGHT
            press KEY_UP
            \(downs)press KEY_ENTER
            press KEY_BACK
            press KEY_BACK
            wait-event subtitle 15000
            wait 400
            snapshot $DIR/caption.png
            wait-event subtitle 15000
            wait 3600
            snapshot $DIR/gap.png
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.subtitles).first?.language == instream, "\(run.named(.subtitles))")
        let texts = run.subtitleTexts
        #expect(texts.count >= 2, "\(texts)")
        #expect(texts.allSatisfy(lines.contains), "captions \(texts), script \(lines)")
        // Consecutive captions follow the script's order (round the loop).
        for (first, second) in zip(texts, texts.dropFirst()) {
            let a = try #require(lines.firstIndex(of: first)), b = try #require(lines.firstIndex(of: second))
            #expect(b == (a + 1) % lines.count, "\(texts)")
        }
        let shots = run.snapshotPaths
        try #require(shots.count == 2)
        // A caption shows 3 s of its 5 s slot: 3.6 s after one began, the screen is between two.
        let captioned = try await markedShare(shots[0]), gap = try await markedShare(shots[1])
        #expect(captioned > 0.005, "the bottom of the picture with a caption: \(captioned)")
        #expect(gap < 0.001, "the bottom of the picture between captions: \(gap)")
    }

    /// `[sound] captions-when-muted`: muting shows CC1 with no choice made; unmuting hides it.
    @Test func mutingShowsCaptionsWhenTheSettingAsks() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-captions-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "[sound]\ncaptions-when-muted = true\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try await LaunchedZapper(lineup: try playback.demoLineup(),
                                           arguments: ["--channel", "\(Self.channel)", "--size", "320x180", "--config", config.path], script: """
            wait-event first-frame 20000
            wait 6000
            press KEY_MUTE
            wait-event subtitle 15000
            press KEY_MUTE
            wait 6000
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let texts = run.subtitleTexts
        let lines = try script().lines
        #expect(texts.count == 1 && texts.allSatisfy(lines.contains), "\(texts)")
        // Nothing before the mute: six seconds of the loop always hold a caption's start.
        let muted = try #require(run.named(.volume).first { if case .volume(_, muted: true) = $0.event { true } else { false } }?.milliseconds)
        #expect(try #require(run.named(.subtitle).first?.milliseconds) > muted)
        #expect(run.named(.subtitles).isEmpty)
    }
}
