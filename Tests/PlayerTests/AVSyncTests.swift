import Foundation
import OriginKit
import Testing
import TestSupport

/// Picture and sound in step: on the sync channel (a white flash on the first
/// frame of every second, a 10 ms 3 kHz beep at the same instant) the flash is
/// on screen when its beep is heard, within ±40 ms, for 30 s.
extension ZapperPlaybackTests {
    /// Both forms at once, with no other zapper beside them: "muxed", the demo lineup's
    /// channel, sound in the picture's stream; "split", its SplitAudio master, the sound a
    /// rendition with a playlist (and a decode thread) of its own. Two zappers at 640x360 take
    /// about a third of the two cores; five more beside them would take the CPU from them, and
    /// their lateness would be the others'.
    @Test func flashAndBeepStayWithin40msFor30s() async throws {
        let sync = try #require(try Repo.catalog().channels.first { $0.syncFlash != nil })
        let beepHz = Double(try #require(sync.syncFlash).beepHz)
        let muxed = try demoLineup()
        #expect(SplitAudio.channels.contains(sync.number))
        let port = try OriginProcess.shared.get().port
        let split = "#EXTM3U\n#EXTINF:-1 tvg-chno=\"\(sync.number)\",Sync\nhttp://127.0.0.1:\(port)/ch/\(sync.number)/\(SplitAudio.masterFile)\n"
        let (muxedRun, splitRun) = try await LaunchSlots.zappers.exclusively {
            async let muxedRun = playSync(lineup: muxed, channel: sync.number)
            async let splitRun = playSync(lineup: split, channel: sync.number)
            return try await (muxedRun, splitRun)
        }
        try judge(muxedRun, form: "muxed", beepHz: beepHz)
        try judge(splitRun, form: "split", beepHz: beepHz)
    }

    private func playSync(lineup: String, channel: Int, extra: [String] = [], seconds: Int = 31) async throws -> LaunchedZapper.Run {
        try await runZapper(lineup: lineup, arguments: ["--channel", "\(channel)", "--size", "640x360", "--trace-frames"] + extra,
                            script: "wait-event first-frame 20000\nwait \(seconds * 1000)\nquit\n")
    }

    /// Lip sync for a display that lags: `[sound] delay-ms = 200` shows each flash 200 ms before
    /// its beep is heard, held within ±20 ms on average and ±40 ms at worst.
    @Test func lipSyncHoldsItsDelay() async throws {
        let sync = try #require(try Repo.catalog().channels.first { $0.syncFlash != nil })
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-lipsync-\(UUID().uuidString).toml")
        try "[sound]\ndelay-ms = 200\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let lineup = try demoLineup()
        let run = try await LaunchSlots.zappers.exclusively {
            try await playSync(lineup: lineup, channel: sync.number, extra: ["--config", config.path], seconds: 20)
        }
        try judge(run, form: "delay 200 ms", beepHz: Double(try #require(sync.syncFlash).beepHz), expected: 200, fewest: 17)
    }

    /// Each flash's presentation against its beep in the capture: `expected` ms between them
    /// (the beep later), within 40 ms at worst and, for a delay asked for, 20 ms on average.
    private func judge(_ run: LaunchedZapper.Run, form: String, beepHz: Double, expected: Double = 0, fewest: Int = 28) throws {
        #expect(run.status == 0, "\(form): \(run.stderr)")
        let firstFrame = try #require(run.named(.firstFrame).first?.milliseconds)

        // When each flash was presented (ms on the event log's clock).
        let frames = run.frames
        let flashes = frames.enumerated().compactMap { index, frame -> Double? in
            guard frame.luma > 200 else { return nil }
            let previous = index > 0 ? frames[index - 1].luma : 0
            return previous > 200 ? nil : Double(frame.milliseconds)
        }

        // When each beep was heard: the WAV starts with the first frame and runs at 48 kHz.
        let pcm = run.wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let left = stride(from: 0, to: pcm.count, by: 2).map { Float(pcm[$0]) / 32768 }
        let window = 96  // 2 ms
        let powers = stride(from: 0, to: left.count - window, by: window).map {
            goertzelPower(Array(left[$0..<$0 + window]), frequency: beepHz, sampleRate: 48_000)
        }
        // A beep is a quarter of a typical beep's power: even loudness turns the channel down
        // over its first seconds, so the first beep is several times the later ones and the
        // loudest alone says little. Beeps fill about 1 % of the windows; the 99.5th percentile is one.
        let threshold = (powers.sorted().dropFirst(Int(Double(powers.count) * 0.995)).first ?? 0) / 4
        var beeps: [Double] = []
        for (index, power) in powers.enumerated() where power > threshold {
            let at = Double(firstFrame) + Double(index * window) / 48
            if let last = beeps.last, at - last < 500 { continue }
            beeps.append(at)
        }

        // Only flashes whose beep the capture can hold (it ends when zapper quits).
        let heardUntil = Double(firstFrame) + Double(left.count) / 48 - 100
        // The sound fades in over its first 30 ms, which can hide the first beep.
        let judged = flashes.filter { $0 < heardUntil && $0 > Double(firstFrame) + 100 }
        #expect(judged.count >= fewest, "\(form): \(judged.count) flashes presented")
        #expect(beeps.count >= fewest, "\(form): \(beeps.count) beeps heard")
        let offsets = judged.compactMap { flash in
            beeps.min { abs($0 - flash - expected) < abs($1 - flash - expected) }.map { $0 - flash - expected }
        }
        let worst = offsets.max { abs($0) < abs($1) } ?? .infinity
        print("A/V offsets, \(form) (ms, beep heard − flash shown − \(Int(expected))) over \(offsets.count) flashes: \(offsets.map { Int($0.rounded()) })")
        #expect(abs(worst) <= 40, "\(form): worst A/V offset \(worst) ms; all: \(offsets.map { Int($0.rounded()) })")
        if expected != 0 {
            let mean = offsets.reduce(0, +) / Double(max(offsets.count, 1))
            #expect(abs(mean) <= 20, "\(form): the offsets average \(mean) ms off \(Int(expected))")
        }
    }
}
