import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The real `zapper` binary playing the demo origin over loopback: picture
/// on the offscreen display (PNG snapshots), sound through real ALSA into a
/// `file` PCM whose WAV the test reads. Its tests run side by side, at most
/// `LaunchSlots.zappers` zappers at once; each fault test has an origin of its own.
@Suite(.timeLimit(.minutes(30)))
struct ZapperPlaybackTests {
    typealias Run = LaunchedZapper.Run

    /// Runs zapper with a script against a lineup; returns what it left behind.
    func runZapper(lineup: String, arguments: [String], script: String) async throws -> Run {
        await (try await LaunchedZapper(lineup: lineup, arguments: arguments, script: script)).finish()
    }

    func demoLineup() throws -> String {
        let origin = try OriginProcess.shared.get()
        return try RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
    }

    /// (red, green, blue) medians of a PNG, or of a rectangle of it.
    func medianColour(_ path: String, crop: Rect? = nil) async throws -> (Int, Int, Int) {
        var arguments = ["-v", "error", "-nostdin", "-i", path]
        if let crop = crop?.integral {
            arguments += ["-vf", "crop=\(Int(crop.width)):\(Int(crop.height)):\(Int(crop.x)):\(Int(crop.y))"]
        }
        let raw = try await Tool.run("ffmpeg", arguments + ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(raw.status == 0 && !raw.stdout.isEmpty, "\(raw.stderr)")
        return medianRGB([UInt8](raw.stdout))
    }

    /// Whether a snapshot's median colour is a channel's (the picture behind no overlay).
    func showsChannel(_ path: String, _ number: Int) async throws -> Bool {
        let expected = try #require(try Repo.catalog().channel(number: number)?.rgb)
        let seen = try await medianColour(path)
        return abs(seen.0 - Int(expected.red)) + abs(seen.1 - Int(expected.green)) + abs(seen.2 - Int(expected.blue)) < 45
    }

    @Test(arguments: [1, 3])
    func playsTheChannelsColourAndTone(number: Int) async throws {
        try await expectPlays(number, lineup: try demoLineup())
    }

    /// HEVC with AC-3, and H.264 with MP2 (the origin's CodecForms, a media playlist each):
    /// decoded by the system's libavcodec into the channel's picture and tone.
    @Test(arguments: CodecForms.all.map(\.name))
    func playsOtherCodecs(form: String) async throws {
        let origin = try OriginProcess.shared.get()
        let number = CodecForms.channel
        let url = "http://127.0.0.1:\(origin.port)/ch/\(number)/\(form)/index.m3u8"
        let segment = try await Tool.temporaryFile(
            RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(number)/\(form)/\(try latestSegment(url))").body, suffix: ".ts")
        defer { try? FileManager.default.removeItem(at: segment) }
        // The segments really are in those codecs.
        let probe = try await Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", segment.path])
        // (ffprobe lists the streams once per program and once more on their own.)
        let codecs = String(decoding: probe.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let expected = try #require(CodecForms.all.first { $0.name == form })
        #expect(codecs == [expected.videoCodec, expected.audioCodec], "\(form): \(codecs)")
        try await expectPlays(number, lineup: "#EXTM3U\n#EXTINF:-1 tvg-chno=\"\(number)\",\(form)\n\(url)\n")
    }

    /// Every segment a byte range of one file the origin sends whole (it ignores Range).
    @Test func playsByteRangeSegments() async throws {
        let origin = try OriginProcess.shared.get()
        try await expectPlays(2, lineup: "#EXTM3U\n#EXTINF:-1 tvg-chno=\"2\",Ranges\nhttp://127.0.0.1:\(origin.port)/ch/2/ranges/index.m3u8\n")
    }

    /// fMP4 fragments encrypted with AES-128 (rotating keys), their EXT-X-MAP section in the clear.
    @Test func playsEncryptedFragmentedMP4() async throws {
        let origin = try OriginProcess.shared.get()
        try await expectPlays(2, lineup: "#EXTM3U\n#EXTINF:-1 tvg-chno=\"2\",AES fMP4\nhttp://127.0.0.1:\(origin.port)/ch/2/aes/fmp4/master.m3u8\n")
    }

    /// The newest segment's file name in a live media playlist.
    func latestSegment(_ url: String) throws -> String {
        let origin = try OriginProcess.shared.get()
        let path = try #require(URL(string: url)?.path)
        let playlist = try RawHTTPConnection.fetch(port: origin.port, "GET", path).text
        return try #require(playlist.split(separator: "\n").last { !$0.hasPrefix("#") }.map(String.init))
    }

    /// Of every tone in the catalog, the strongest in `left` (samples at 48 kHz).
    func strongestTone(_ left: [Float]) throws -> Double? {
        let tones = try Repo.catalog().channels.flatMap { $0.audio.map { Double($0.toneHz) } }
        return tones.max { goertzelPower(left, frequency: $0, sampleRate: 48_000) < goertzelPower(left, frequency: $1, sampleRate: 48_000) }
    }

    /// The left channel of a run's WAV, as samples from -1 to 1.
    func leftSamples(_ run: Run) -> [Float] {
        let pcm = run.wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return stride(from: 0, to: pcm.count, by: 2).map { Float(pcm[$0]) / 32768 }
    }

    /// zapper plays channel `number` of `lineup`: its events in order, its colour in a snapshot,
    /// its tone the strongest in the WAV, faded in.
    func expectPlays(_ number: Int, lineup: String) async throws {
        let channel = try #require(try Repo.catalog().channel(number: number))
        let snapshot = "$DIR/snap.png"
        let run = try await runZapper(lineup: lineup, arguments: ["--channel", "\(number)", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 3000
            snapshot \(snapshot)
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        // The contract's events, in order.
        let names = run.names
        #expect(Array(names.prefix(2)) == [.interstitialShown, .tune])
        #expect(names.contains(.audioStarted))
        let tune = try #require(names.firstIndex(of: .tune))
        let first = try #require(names.firstIndex(of: .firstFrame))
        #expect(tune < first)
        #expect(run.named(.firstFrame).first?.channel == number)
        let zap: Int? = if case let .firstFrame(_, zap, _, _, _)? = run.named(.firstFrame).first?.event { zap } else { nil }
        #expect((zap ?? -1) >= 0)
        let path = try #require(run.snapshotPaths.first)

        // The picture: the channel's colour dominates.
        let seen = try await medianColour(path)
        let expected = try #require(channel.rgb)
        let distance = abs(seen.0 - Int(expected.red)) + abs(seen.1 - Int(expected.green)) + abs(seen.2 - Int(expected.blue))
        #expect(distance < 45, "snapshot median \(seen), channel colour \(channel.colour)")

        // The sound went out in real time from the first picture to the snapshot (the script's
        // three seconds, and on a loaded machine what the snapshot took), and its strongest
        // catalog tone is the channel's.
        let left = leftSamples(run)
        let seconds = Double(left.count) / 48_000
        let shown = try #require(run.named(.firstFrame).first?.milliseconds)
        let snapped = try #require(run.named(.snapshot).first?.milliseconds)
        let played = Double(snapped - shown) / 1000
        #expect(played >= 3 && abs(seconds - played) < 0.5, "\(seconds) s of audio in \(played) s from the first picture to the snapshot")
        #expect(try strongestTone(left) == Double(channel.audio[0].toneHz))

        // The sound fades in: its first 5 ms are much quieter than a moment later.
        func rms(_ range: Range<Int>) -> Double {
            (range.map { Double(left[$0] * left[$0]) }.reduce(0, +) / Double(range.count)).squareRoot()
        }
        let opening = try #require(left.firstIndex { $0 != 0 })
        #expect(rms(opening..<opening + 240) < 0.5 * rms(opening + 4800..<opening + 9600))
    }

    @Test func aDeadChannelReportsLoadFailed() async throws {
        let lineup = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"9\",Dead\nhttp://127.0.0.1:9/ch/9/master.m3u8\n"
        let run = try await runZapper(lineup: lineup, arguments: [], script: "wait-event load-failed 10000\nquit\n")
        #expect(run.status == 0, "\(run.stderr)")
        let failure = try #require(run.named(.loadFailed).first)
        #expect(failure.channel == 9)
        #expect(failure.failure?.detail.contains("127.0.0.1:9") == true)
        #expect(run.named(.firstFrame).isEmpty)
    }

    @Test func aScriptThatTimesOutFailsTheRun() async throws {
        let lineup = "#EXTM3U\n#EXTINF:-1,Dead\nhttp://127.0.0.1:9/x.m3u8\n"
        let run = try await runZapper(lineup: lineup, arguments: [], script: "wait-event first-frame 500\nquit\n")
        #expect(run.status != 0)
        #expect(run.stderr.contains("script: line 1: no first-frame event within 500 ms"))
    }

    @Test func badScriptsAndOptionsAreRefusedClearly() async throws {
        let lineup = "#EXTM3U\n#EXTINF:-1,Dead\nhttp://127.0.0.1:9/x.m3u8\n"
        let bad = try await runZapper(lineup: lineup, arguments: [], script: "wait\n")
        #expect(bad.status != 0 && bad.stderr.contains("script.txt:1: usage: wait MS"))
        let size = try await runZapper(lineup: lineup, arguments: ["--size", "big"], script: "quit\n")
        #expect(size.status != 0 && size.stderr.contains("--size big"))
    }
}
