import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// Separate audio renditions chosen in the panel, end to end: the real zapper, the demo
/// origin, real ALSA into a WAV. (The panel's behaviour, parental control and signage are
/// tested in-process: `InProcess.PanelBehaviourTests`, `InProcess.LockBehaviourTests`.)
@Suite(.timeLimit(.minutes(30)))
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

    func time(_ run: LaunchedZapper.Run, _ name: EventName) throws -> Int {
        try #require(run.named(name).first?.milliseconds, "no \(name) event")
    }
}

extension PanelTests {
    /// Channel 1 as a master whose audio languages have playlists of their own
    /// (SplitAudio): the picture and English play from the start, and Audio →
    /// Deutsch in the panel switches the sound to the other rendition's playlist.
    @Test func separateAudioRenditionsPlayAndSwitch() async throws {
        let channel = try #require(try Repo.catalog().channel(number: 1))
        let origin = try OriginProcess.shared.get()
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"1\",Split\nhttp://127.0.0.1:\(origin.port)/ch/1/\(SplitAudio.masterFile)\n"
        let run = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "1", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 3000
            snapshot $DIR/split.png
            press KEY_UP
            wait 600
            press KEY_RIGHT
            press KEY_RIGHT
            press KEY_UP
            press KEY_DOWN
            press KEY_ENTER
            press KEY_BACK
            wait 4000
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.audioFailed).isEmpty, "\(run.named(.audioFailed))")
        #expect(run.named(.audio).first?.language == "de")
        let shot = try #require(run.snapshotPaths.first)
        #expect(try await playback.showsChannel(shot, 1))

        // English from the first frame on, Deutsch in the last seconds.
        let samples = pcm(run)
        let chosen = try time(run, .audio) - time(run, .firstFrame)
        try #require(chosen > 2_000 && samples.count > (chosen + 3_000) * 96, "\(samples.count / 96) ms of sound")
        #expect(try dominantTone(samples[48_000..<(chosen - 100) * 96]) == channel.audio[0].toneHz)
        #expect(try dominantTone(samples[(samples.count - 2 * 96_000)...]) == channel.audio[1].toneHz)
    }
}

extension PanelTests {
    /// Two channels whose sound is a rendition of its own: flipping to the warm one
    /// plays its picture and its sound (the warm feed's newest segments), and the
    /// language remembered for it is the rendition it starts with.
    @Test func aFlipToAWarmChannelWithSeparateAudioPlaysItsSound() async throws {
        let catalog = try Repo.catalog()
        let (first, second) = (try #require(catalog.channel(number: SplitAudio.channels[1])),
                               try #require(catalog.channel(number: SplitAudio.channels[0])))
        let origin = try OriginProcess.shared.get()
        let lineup = "#EXTM3U\n" + [first, second].map {
            "#EXTINF:-1 tvg-chno=\"\($0.number)\" tvg-id=\"\($0.id)\",\($0.name)\nhttp://127.0.0.1:\(origin.port)/ch/\($0.number)/\(SplitAudio.masterFile)\n"
        }.joined()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-split-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // The second channel's German was chosen on an earlier day.
        let key = LineupChannel(number: second.number, name: second.name, url: URL(string: "http://x/")!, guideID: second.id).stateKey
        try JSONEncoder().encode(ZapperState(audio: [key: second.audio[1].language])).write(to: state.appendingPathComponent("state.json"))
        // A warm flip to 1280x720 catches up from the warm feed's kept key frame to its live edge in a
        // burst of decoding; beside four other real-time zappers on two cores that burst once fell
        // behind the clock (pictures skipped, "no picture for 2 s", the sound never begun in CI):
        // the zappers beside it wait.
        let run = try await LaunchSlots.zappers.exclusively {
            try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(first.number)", "--size", "640x360",
                                                                "--state-dir", state.path], script: """
                wait-event first-frame 20000
                wait 6000
                press KEY_CHANNELUP
                wait-event interstitial-dismissed 15000
                wait 3000
                quit
                """).finish()
        }
        #expect(run.status == 0, "\(run.stderr)")
        let tune = try #require(run.tunes.last)
        #expect(tune.channel == second.number && tune.warm == true, "\(tune)")
        #expect(run.named(.audioStarted).map(\.channel) == [first.number, second.number], "\(run.stderr) \(run.names.map(\.rawValue).filter { $0 != "frame" })")
        // Its remembered language, in the last two seconds.
        let samples = pcm(run)
        try #require(samples.count > 3 * 96_000)
        #expect(try dominantTone(samples[(samples.count - 2 * 96_000)...]) == second.audio[1].toneHz)
    }
}

/// The state that outlives the process, end to end: read by the executable from its folder,
/// written atomically.
@Suite(.timeLimit(.minutes(30)))
struct LockAndStateTests {
    let playback = ZapperPlaybackTests()

    /// The last channel and the volume come back at the next start.
    @Test func theLastChannelAndVolumeComeBack() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let lineup = try playback.demoLineup()
        let first = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "3", "--state-dir", state.path], script: """
            wait-event first-frame 20000
            press KEY_VOLUMEDOWN
            press KEY_VOLUMEDOWN
            quit
            """).finish()
        #expect(first.status == 0, "\(first.stderr)")
        let saved = try ZapperState.decode(Data(contentsOf: state.appendingPathComponent("state.json")))
        #expect(saved.lastChannel == 3 && saved.volume == 70, "\(saved)")
        let second = try await LaunchedZapper(lineup: lineup, arguments: ["--state-dir", state.path], script: """
            wait-event first-frame 20000
            quit
            """).finish()
        #expect(second.tunes.first?.channel == 3, "\(second.stderr)")
    }

    /// Channel 1's subtitle choice and the picture mode come back from the state directory at
    /// start, with no key pressed: its English cues show, and at 1024x768 the 16:9 picture fills
    /// the screen (`fill`) instead of sitting between black bars (`fit`).
    @Test func theSubtitleChoiceAndPictureModeComeBack() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let saved = ZapperState(lastChannel: 1, lastChannelKey: "tvg:red.zapper", subtitles: ["tvg:red.zapper": "en"], picture: .fill)
        try saved.encoded().write(to: state.appendingPathComponent("state.json"))
        let run = try await LaunchedZapper(lineup: try playback.demoLineup(), arguments: ["--state-dir", state.path, "--size", "1024x768"], script: """
            wait-event first-frame 20000
            wait-event subtitle 15000
            wait 500
            snapshot $DIR/filled.png
            quit
            """).finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.tunes.first?.channel == 1)
        #expect(run.named(.key).isEmpty)
        let cue = try #require(run.subtitleTexts.first)
        #expect(cue.contains("en"), "\(cue)")
        let shot = try #require(run.snapshotPaths.first)
        let top = try await playback.medianColour(shot, crop: Rect(x: 400, y: 4, width: 224, height: 40))
        let expected = try #require(try Repo.catalog().channel(number: 1)?.rgb)
        #expect(abs(top.0 - Int(expected.red)) + abs(top.1 - Int(expected.green)) + abs(top.2 - Int(expected.blue)) < 60,
                "the top of the screen is \(top), not the picture: fit, not fill")
    }

    /// kill -9 at random moments while the player saves its state (volume keys and
    /// channel changes all the time): the state file is always whole.
    @Test func killedWhileSavingLeavesAWholeStateFile() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let lineup = try playback.demoLineup()
        let busy = (0..<400).map { $0 % 2 == 0 ? "press KEY_VOLUMEUP\nwait 20" : "press KEY_VOLUMEDOWN\nwait 20" }.joined(separator: "\n")
        var generator = SystemRandomNumberGenerator()
        var saves = 0
        for round in 0..<6 {
            let zapper = try await LaunchedZapper(lineup: lineup, arguments: ["--channel", "\(1 + round % 3)", "--state-dir", state.path],
                                            script: "wait-event first-frame 20000\n" + busy + "\nquit\n")
            #expect(await zapper.waitFor(.firstFrame, seconds: 30))
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...2500, using: &generator)))
            await zapper.kill()
            let file = state.appendingPathComponent("state.json")
            let data = try Data(contentsOf: file)
            let restored = try ZapperState.decode(data)
            #expect(restored.lastChannel != nil, "round \(round): \(String(decoding: data, as: UTF8.self))")
            saves += 1
        }
        #expect(saves == 6)
    }
}
