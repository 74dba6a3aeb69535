import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The swipe-up panel, audio languages and subtitles, and parental control,
/// end to end: the real zapper, the demo origin, real ALSA into a WAV.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PanelTests {
    let playback = ZapperPlaybackTests()

    /// The strongest catalog tone in `samples` (interleaved stereo at 48 kHz, left channel).
    func dominantTone(_ samples: ArraySlice<Int16>) throws -> Int {
        let left = stride(from: samples.startIndex, to: samples.endIndex, by: 2).map { Float(samples[$0]) / 32768 }
        let tones = try Repo.catalog().channels.flatMap { $0.audio.map(\.toneHz) }
        return tones.max { goertzelPower(left, frequency: Double($0), sampleRate: 48_000) < goertzelPower(left, frequency: Double($1), sampleRate: 48_000) }!
    }

    func pcm(_ run: LaunchedZapper.Run) -> [Int16] {
        run.wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    func time(_ run: LaunchedZapper.Run, _ name: String) throws -> Int {
        try #require(run.named(name).first?["t_ms"] as? Int, "no \(name) event")
    }

    /// Up opens the panel over the playing picture; Audio → Deutsch switches the sound to
    /// channel 1's second language; Subtitles → English shows its cues once the panel is
    /// closed; the channel list tunes channel 2 through the flip flow and closes the panel.
    @Test func panelChoosesAudioSubtitlesAndChannels() throws {
        let channel = try #require(try Repo.catalog().channel(number: 1))
        let run = try LaunchedZapper(lineup: try playback.demoLineup(), arguments: ["--channel", "1", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 1000
            press KEY_UP
            wait 600
            snapshot $DIR/panel.png
            press KEY_RIGHT
            press KEY_RIGHT
            press KEY_UP
            press KEY_DOWN
            press KEY_ENTER
            press KEY_RIGHT
            press KEY_DOWN
            press KEY_ENTER
            press KEY_BACK
            press KEY_BACK
            wait-event subtitle 15000
            wait 3000
            press KEY_MENU
            press KEY_LEFT
            press KEY_LEFT
            press KEY_LEFT
            press KEY_UP
            press KEY_DOWN
            press KEY_ENTER
            wait-event first-frame 20000
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let names = run.events.compactMap { $0["event"] as? String }.filter { $0 != "key" }
        #expect(run.named("panel-opened").count == 2)
        #expect(run.named("panel-closed").map { $0["reason"] as? String } == ["key", "chosen"])
        #expect(run.named("audio").first?["language"] as? String == "de")
        #expect(run.named("subtitles").first?["language"] as? String == "en")
        let cue = try #require(run.named("subtitle").first?["text"] as? String)
        #expect(cue.contains(channel.name) && cue.contains("en"), "\(cue)")
        // Subtitles show only after the panel closed.
        #expect(try time(run, "subtitle") >= run.named("panel-closed").first?["t_ms"] as? Int ?? .max)
        let tune = try #require(run.named("tune").last)
        #expect(tune["channel"] as? Int == 2 && tune["reason"] as? String == "list", "\(names)")

        // The panel is drawn over the bottom of the picture, which keeps its colour above it.
        let panel = try #require(run.named("snapshot").first?["path"] as? String)
        let bottom = try playback.medianColour(panel, crop: Rect(x: 200, y: 560, width: 880, height: 100))
        let top = try playback.medianColour(panel, crop: Rect(x: 1000, y: 20, width: 200, height: 60))
        let expected = try #require(channel.rgb)
        #expect(abs(top.0 - Int(expected.red)) + abs(top.1 - Int(expected.green)) + abs(top.2 - Int(expected.blue)) < 45)
        #expect(bottom.0 + bottom.1 + bottom.2 < 200, "panel area \(bottom)")

        // The sound: English (330 Hz) before the choice, Deutsch (1320 Hz) in the two seconds before the tune.
        let samples = pcm(run)
        let chosen = try time(run, "audio") * 96
        let tuned = (tune["t_ms"] as? Int ?? 0) * 96
        try #require(chosen > 96_000 && tuned > chosen + 3 * 96_000 && tuned <= samples.count + 96_000)
        #expect(try dominantTone(samples[(chosen - 96_000)..<(chosen - 10_000)]) == channel.audio[0].toneHz)
        #expect(try dominantTone(samples[(min(tuned, samples.count) - 2 * 96_000)..<(min(tuned, samples.count) - 10_000)]) == channel.audio[1].toneHz)
    }
}
