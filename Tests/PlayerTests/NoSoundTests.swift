import Foundation
import Testing
import TestSupport

/// A box with no sound card (or one whose device cannot be opened): the
/// pictures run on the system clock, flips still work, and ALSA's own error
/// text reaches our log instead of raw stderr.
extension ZapperPlaybackTests {
    @Test func withNoSoundDeviceThePicturesGoOn() async throws {
        let zapper = try await LaunchedZapper(lineup: try demoLineup(),
                                        arguments: ["--channel", "1", "--size", "320x180", "--trace-frames", "--audio-device", "nonexistent"],
                                        script: """
            wait-event first-frame 20000
            wait 6000
            snapshot $DIR/one.png
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 3000
            snapshot $DIR/two.png
            quit
            """)
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(run.named(.firstFrame).first?.milliseconds, "\(run.stderr)")
        // Pictures all along: the first six seconds after the first picture have a picture at least every half second.
        let shown = run.frames.map(\.milliseconds).filter { $0 >= first && $0 <= first + 6_000 }
        let gaps = zip(shown.dropFirst(), shown).map { $0 - $1 }
        #expect(shown.count >= 100, "\(shown.count) pictures in 6 s")
        let behind = run.stderr.split(separator: "\n").filter { $0.contains("fell behind") || $0.contains("too slowly") }
        #expect((gaps.max() ?? .max) < 500, "a picture stayed \(gaps.max() ?? 0) ms; \(behind)")
        #expect(run.named(.loadFailed).isEmpty, "\(run.named(.loadFailed))")
        #expect(run.named(.firstFrame).compactMap(\.channel) == [1, 2])
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("one.png").path, 1))
        #expect(try await showsChannel(zapper.directory.appendingPathComponent("two.png").path, 2))
        // Said once, in our words, though the device is tried again every 5 s, with ALSA's own reason
        // in the same line (one reason is enough), never raw; and what happened to the sound.
        #expect(run.named(.soundLost).count == 1)
        #expect(run.stderr.components(separatedBy: "zapper: sound: none (").count == 2, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "Unknown PCM nonexistent").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("; ALSA: snd_pcm_open_noupdate: Unknown PCM nonexistent"), "\(run.stderr)")
        #expect(!run.stderr.contains("zapper: sound: ALSA:"), "\(run.stderr)")
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("ALSA lib") }, "\(run.stderr)")
        #expect(run.stderr.contains("zapper: sound of 1 decoded; no sound device plays it"), "\(run.stderr)")
        #expect(!run.stderr.contains("sound of 1 started"), "\(run.stderr)")
        let heard: Bool? = if case let .audioStarted(_, heard)? = run.named(.audioStarted).first?.event { heard } else { nil }
        #expect(heard == false)
    }
}
