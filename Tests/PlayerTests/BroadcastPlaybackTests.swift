import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// Broadcast as a headend or a tuner hands it over, through the real binary: interlaced
/// channels deinterlaced at field rate (no comb on the moving bar; Deinterlace Off combs),
/// anamorphic pictures at their shape (the bars where they belong and nowhere else), a radio
/// channel presented by its sound, and an HDHomeRun's lineup played within its two tuners.
extension ZapperPlaybackTests {
    func broadcast(_ number: Int) throws -> BroadcastChannel {
        try #require(try Repo.catalog().broadcastChannel(number: number))
    }

    func rawLineup(_ numbers: [Int], port: Int, radioMarked: Bool = true) throws -> String {
        try "#EXTM3U\n" + numbers.map { number in
            let channel = try broadcast(number)
            let radio = channel.isRadio && radioMarked ? " radio=\"true\"" : ""
            return "#EXTINF:-1 tvg-chno=\"\(number)\"\(radio),\(channel.name)\nhttp://127.0.0.1:\(port)/broadcast/\(number).ts\n"
        }.joined()
    }

    /// The strongest of every channel's tones (the demo's and the broadcast ones) in `left`.
    func strongestBroadcastTone(_ left: [Float]) throws -> Double? {
        let catalog = try Repo.catalog()
        let tones = catalog.channels.flatMap { $0.audio.map { Double($0.toneHz) } }
            + catalog.broadcastChannels.flatMap { $0.audio.map { Double($0.toneHz) } + ($0.change.map { [Double($0.toneHz)] } ?? []) }
        return tones.max { goertzelPower(left, frequency: $0, sampleRate: 48_000) < goertzelPower(left, frequency: $1, sampleRate: 48_000) }
    }

    /// A snapshot's pixels as RGB24, with its size.
    func rgb(_ path: String) async throws -> [UInt8] {
        let raw = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(raw.status == 0, "\(raw.stderr)")
        return [UInt8](raw.stdout)
    }

    /// A state directory whose state says Deinterlace: Off.
    func stateWithDeinterlaceOff() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-deint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var state = ZapperState()
        state.deinterlace = .off
        try state.encoded().write(to: directory.appendingPathComponent("state.json"))
        return directory
    }

    /// 1080i25 H.264 (MBAFF) and 576i25 MPEG-2 at their own size, rows one to one: at field rate
    /// (pictures timed between two frames are presented), the moving bar's edge straight; with
    /// Deinterlace Off, woven frames whose edge combs, at frame rate. (Pictures dropped at field
    /// rate are `make bench`'s measure, on a release build.)
    @Test(arguments: [(101, "1920x1080"), (102, "1024x576")])
    func interlacedChannelsAreDeinterlacedAtFieldRate(number: Int, size: String) async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try broadcast(number)
        let video = try #require(channel.video)
        let frameRate = try #require(video.frameRate)
        let perSecond = Double(frameRate.numerator) / Double(frameRate.denominator)
        let (width, height) = (Int(size.split(separator: "x")[0])!, Int(size.split(separator: "x")[1])!)
        // Rows where the bar moves and no banner is (it leaves after 4 s; the snapshot is later anyway).
        let rows = Int(Double(height) * 0.64)..<Int(Double(height) * 0.76)
        let off = try stateWithDeinterlaceOff()
        defer { try? FileManager.default.removeItem(at: off) }
        for deinterlaced in [true, false] {
            let arguments = ["--channel", "\(number)", "--size", size, "--trace-frames"] + (deinterlaced ? [] : ["--state-dir", off.path])
            let lineup = try rawLineup([number], port: origin.port)
            let play = {
                try await runZapper(lineup: lineup, arguments: arguments, script: """
                    wait-event first-frame 20000
                    wait 5000
                    snapshot $DIR/picture.png
                    quit
                    """)
            }
            // 1080i at field rate takes about one of the two cores in a debug build: with the
            // other zappers beside it, the box is rightly found too slow and turns to frame rate.
            let run = try await deinterlaced && width * height > 1_000_000 ? LaunchSlots.zappers.exclusively(play) : play()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.named(.loadFailed).isEmpty, "\(run.named(.loadFailed))")
            // The presented pictures' own times: at field rate, half of them fall between two frames'
            // times (a second field), whatever a busy debug build drops on the way to the screen.
            let frameMs = 1000 / perSecond
            let first = try #require(run.named(.firstFrame).first?.milliseconds)
            let presented = run.frames.filter { $0.milliseconds >= first + 1000 }.map(\.pts)
            #expect(presented.count > 50, "\(presented.count) pictures presented")
            let origin = Double(presented.first ?? 0)
            let between = presented.filter { abs((Double($0) - origin).truncatingRemainder(dividingBy: frameMs) - frameMs / 2) < 3 }.count
            let share = Double(between) / Double(max(presented.count, 1))
            if deinterlaced {
                let turned = run.stderr.split(separator: "\n").filter { $0.contains("at field rate took") }
                #expect(share > 0.3, "channel \(number): \(Int(share * 100)) % of the pictures are second fields \(turned)")
            } else {
                #expect(share < 0.05, "channel \(number): \(Int(share * 100)) % second fields with Deinterlace Off")
            }
            let path = try #require(run.snapshotPaths.first)
            let comb = try #require(combOffset(rgb: try await rgb(path), width: width, height: height, rows: rows), "no bar in \(path)")
            if deinterlaced {
                #expect(comb < 1.5, "channel \(number) combs by \(comb) px deinterlaced")
            } else {
                #expect(comb > 4, "channel \(number) combs by only \(comb) px with Deinterlace Off")
            }
            let left = leftSamples(run)
            #expect(try strongestBroadcastTone(Array(left.suffix(2 * 48_000))) == Double(channel.audio[0].toneHz))
        }
    }

    /// At 640x360 (16:9): 720x576 with SAR 64:45 and 1440x1080 with SAR 4:3 fill the screen;
    /// 720x576 with SAR 16:15 (4:3) is pillarboxed, 80 pixels of black a side and nothing else.
    @Test(arguments: [(102, 0), (103, 0), (104, 80)])
    func anamorphicPicturesKeepTheirShape(number: Int, bar: Int) async throws {
        let origin = try OriginProcess.shared.get()
        let colour = try #require(try broadcast(number).rgb)
        let run = try await runZapper(lineup: try rawLineup([number], port: origin.port), arguments: ["--channel", "\(number)"], script: """
            wait-event first-frame 20000
            wait 5000
            snapshot $DIR/shape.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let path = try #require(run.snapshotPaths.first)
        func isChannel(_ seen: (Int, Int, Int)) -> Bool {
            abs(seen.0 - Int(colour.red)) + abs(seen.1 - Int(colour.green)) + abs(seen.2 - Int(colour.blue)) < 45
        }
        func isBlack(_ seen: (Int, Int, Int)) -> Bool { seen.0 + seen.1 + seen.2 < 30 }
        // Rows below the logo bug and above the moving bar: the channel's colour, or the bars' black.
        let band = (top: 120.0, height: 80.0)
        let left = try await medianColour(path, crop: Rect(x: 2, y: band.top, width: 24, height: band.height))
        let right = try await medianColour(path, crop: Rect(x: 614, y: band.top, width: 24, height: band.height))
        let inside = try await medianColour(path, crop: Rect(x: Double(bar) + 10, y: band.top, width: Double(620 - 2 * bar), height: band.height))
        #expect(isChannel(inside), "channel \(number): \(inside) inside the picture")
        // Its sound too: MP2, AC-3 5.1 (the tone in its centre), E-AC-3.
        let tone = try #require(try broadcast(number).audio.first?.toneHz)
        #expect(try strongestBroadcastTone(Array(leftSamples(run).suffix(2 * 48_000))) == Double(tone), "channel \(number)'s tone")
        if bar == 0 {
            #expect(isChannel(left) && isChannel(right), "channel \(number) fills the screen: \(left) \(right) at its edges")
        } else {
            #expect(isBlack(left) && isBlack(right), "channel \(number): \(left) \(right) where its bars are")
            // The bars end where the 4:3 picture begins: its edge two pixels in is the picture.
            let edge = try await medianColour(path, crop: Rect(x: Double(bar) + 2, y: band.top, width: 4, height: band.height))
            #expect(isChannel(edge), "channel \(number): \(edge) just inside its bar")
        }
    }

    /// 720p50, progressive, with AAC in LATM (as DVB-T2 sends it): its colour, its tone, and
    /// pictures 20 ms apart passed as decoded.
    @Test func aProgressiveLATMChannelPlays() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try broadcast(106)
        let colour = try #require(channel.rgb)
        let run = try await runZapper(lineup: try rawLineup([106], port: origin.port), arguments: ["--channel", "106", "--trace-frames"], script: """
            wait-event first-frame 20000
            wait 4000
            snapshot $DIR/latm.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let path = try #require(run.snapshotPaths.first)
        let seen = try await medianColour(path, crop: Rect(x: 100, y: 120, width: 440, height: 80))
        #expect(abs(seen.0 - Int(colour.red)) + abs(seen.1 - Int(colour.green)) + abs(seen.2 - Int(colour.blue)) < 45, "\(seen)")
        #expect(try strongestBroadcastTone(Array(leftSamples(run).suffix(2 * 48_000))) == Double(channel.audio[0].toneHz))
        let times = run.frames.map(\.pts)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.filter { $0 == 20 || $0 == 19 || $0 == 21 }.count > gaps.count / 3, "picture times: \(gaps.prefix(20))")
    }

    /// A radio channel, marked in the lineup or only found to have no picture: its card is
    /// dismissed by its first sound, its tone plays, the screen is black but for the radio card,
    /// and no picture watch fails it.
    @Test(arguments: [true, false])
    func aRadioChannelIsPresentedByItsSound(marked: Bool) async throws {
        let origin = try OriginProcess.shared.get()
        let radio = try #require(try Repo.catalog().broadcastChannels.first(where: \.isRadio))
        // From a TV channel: its picture must not stay behind the radio.
        let run = try await runZapper(lineup: try rawLineup([101, radio.number], port: origin.port, radioMarked: marked),
                                      arguments: ["--channel", "101"], script: """
            wait-event first-frame 20000
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 6000
            snapshot $DIR/radio.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.named(.firstFrame).compactMap(\.channel) == [101, radio.number])
        #expect(run.named(.interstitialDismissed).last?.result == .ok)
        #expect(run.named(.loadFailed).isEmpty && run.named(.stalled).isEmpty, "\(run.named(.loadFailed)) \(run.stderr)")
        #expect(run.named(.audioStarted).compactMap(\.channel).contains(radio.number))
        let left = leftSamples(run)
        #expect(try strongestBroadcastTone(Array(left.suffix(2 * 48_000))) == Double(radio.audio[0].toneHz))
        let path = try #require(run.snapshotPaths.first)
        // Black where a picture would be (the card covers the upper part only).
        let below = try await medianColour(path, crop: Rect(x: 0, y: 260, width: 640, height: 80))
        #expect(below.0 + below.1 + below.2 < 30, "\(below) under the radio card")
        // The card is there: not all black above.
        let whole = try await rgb(path)
        var lit = 0
        for pixel in 0..<min(640 * 240, whole.count / 3) {
            let sum = Int(whole[pixel * 3]) + Int(whole[pixel * 3 + 1]) + Int(whole[pixel * 3 + 2])
            if sum > 60 { lit += 1 }
        }
        // The card's panel (dark grey, not black) and what is on it: about a third of the area.
        #expect(lit > 640 * 240 / 10, "the radio card: \(lit) pixels not black")
    }
}

/// A raw TS's audio PIDs with their ISO 639 languages and audio types: listed in the Audio tab
/// (the audio description too), chosen there, and chosen by the box's `[sound]` where nobody did.
extension ZapperPlaybackTests {
    /// The dominant tone of the last two seconds of a run's sound.
    func lastTone(_ run: Run) throws -> Double? {
        try strongestBroadcastTone(Array(leftSamples(run).suffix(2 * 48_000)))
    }

    @Test func aRawTSsTracksAreListedAndTheAudioDescriptionIsChosenInThePanel() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try broadcast(102)
        let description = try #require(channel.audio.firstIndex { $0.description == true })
        let run = try await runZapper(lineup: try rawLineup([102], port: origin.port), arguments: ["--channel", "102"], script: """
            wait-event first-frame 20000
            wait 2000
            press KEY_UP
            wait 600
            press KEY_RIGHT
            press KEY_RIGHT
            press KEY_UP
            \(Array(repeating: "press KEY_DOWN", count: description).joined(separator: "\n"))
            press KEY_ENTER
            press KEY_BACK
            wait 4000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        // Its name tells it from the English main track.
        #expect(run.named(.audio).first?.language == "English (audio description)", "\(run.named(.audio))")
        #expect(try lastTone(run) == Double(channel.audio[description].toneHz))
    }

    @Test(arguments: [("", 0), ("[sound]\nlanguages = [\"fra\", \"deu\"]\n", 1), ("[sound]\naudio-description = true\n", 2)])
    func theBoxsSoundPreferencesChooseWhereNobodyDid(config: String, track: Int) async throws {
        let origin = try OriginProcess.shared.get()
        let channel = try broadcast(102)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-sound-\(UUID().uuidString).toml")
        try config.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await runZapper(lineup: try rawLineup([102], port: origin.port),
                                      arguments: ["--channel", "102", "--config", file.path], script: """
            wait-event first-frame 20000
            wait 3000
            quit
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try lastTone(run) == Double(channel.audio[track].toneHz), "config \(config)")
    }
}

/// Surround: a 5.1 AC-3 track whose tone is in its centre channel only (a broadcast's speech)
/// is downmixed with the centre at -3 dB a side, not scaled down with the whole mix.
extension ZapperPlaybackTests {
    @Test func aSurroundDownmixKeepsTheCentresSpeechAtItsLevel() async throws {
        let origin = try OriginProcess.shared.get()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-downmix-\(UUID().uuidString).toml")
        try "[sound]\neven-loudness = false\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        /// The left channel's level of the channel's tone over the last two seconds.
        func toneLevel(_ number: Int) async throws -> Double {
            let channel = try broadcast(number)
            let run = try await runZapper(lineup: try rawLineup([number], port: origin.port),
                                          arguments: ["--channel", "\(number)", "--config", file.path], script: "wait-event first-frame 20000\nwait 4000\nquit\n")
            #expect(run.status == 0, "\(run.stderr)")
            let last = Array(leftSamples(run).suffix(3 * 48_000))
            #expect(try strongestBroadcastTone(last) == Double(channel.audio[0].toneHz), "channel \(number)")
            // The tone's level where it sounds: the median of the louder half of 10 ms blocks, so that
            // a moment of silence standing in for late sound (a busy machine) does not count.
            let blocks = stride(from: 0, to: last.count - 480, by: 480).map { start in
                (last[start..<start + 480].map { Double($0 * $0) }.reduce(0, +) / 480).squareRoot()
            }.sorted()
            return blocks.isEmpty ? 0 : blocks[blocks.count * 3 / 4]
        }
        // Both tones are encoded at the same amplitude: 101's in both stereo channels, 103's in the centre alone.
        let stereo = try await toneLevel(101)
        let centre = try await toneLevel(103)
        let ratio = centre / max(stereo, 1e-9)
        #expect((0.6...0.8).contains(ratio), "the centre's tone is \(20 * log10(ratio)) dB against a stereo one (-3 dB expected)")
    }
}
