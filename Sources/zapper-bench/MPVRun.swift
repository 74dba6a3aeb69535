import Foundation

/// mpv on the same channel's master playlist, asked for the highest variant,
/// no video output and no sound output (`--vo=null --ao=null`): it decodes
/// but neither scales nor composes. Cold start is the spawn to its
/// `playback-restart` event on the IPC socket.
struct MPVRun {
    let setup: PlaybackSetup

    func run() throws -> ToolResult {
        let socketPath = setup.directory.appendingPathComponent("mpv.sock").path
        // --length keeps it playing past the window; the bench quits it at the window's end.
        let length = Int(setup.warmup + setup.seconds + 30)
        let child = try ChildProcess(
            name: "mpv", executable: try Tools.onPath("mpv"),
            arguments: ["--no-config", "--vo=null", "--ao=null", "--really-quiet", "--hls-bitrate=max",
                        "--length=\(length)", "--input-ipc-server=\(socketPath)", setup.masterURL],
            directory: setup.directory)
        Progress.say("mpv: channel \(setup.channel), --hls-bitrate=max --vo=null --ao=null")
        try child.run()
        let sampler = ProcessSampler(pid: child.pid)
        sampler.start()
        defer {
            sampler.stop()
            child.stop()
        }
        let control = try MPVControl(path: socketPath, seconds: 5)
        var restart: Double?
        while restart == nil {
            restart = control.firstEvent("playback-restart")
            guard child.isRunning else { throw BenchError("mpv exited before playing:\n\(child.stderrTail())") }
            guard Monotonic.now < child.startedAt + 30 else { throw BenchError("mpv: no playback-restart in 30 s") }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let coldStart = Int(((restart! - child.startedAt) * 1000).rounded())
        Progress.say("mpv: playback-restart \(coldStart) ms after the spawn")
        let measurement = try measureWindow(child, sampler, from: restart! + setup.warmup, seconds: setup.seconds)

        let width = control.property("width") as? Int
        let height = control.property("height") as? Int
        let drops = control.property("frame-drop-count") as? Int
        let decoderDrops = control.property("decoder-frame-drop-count") as? Int
        control.quit()
        _ = child.waitForExit(seconds: 5)

        let played = width.flatMap { w in height.map { "\(w)x\($0)" } } ?? "unknown (mpv did not say)"
        var notes = ["\(Tools.version(of: "mpv", flag: "--version", words: 2, directory: setup.directory)): cold start is spawn → `playback-restart` on its IPC socket (mpv's first frame, here at \(played) since --hls-bitrate=max); the window starts \(Int(setup.warmup)) s later. With --vo=null it does no scaling or compositing and its demuxer is FFmpeg's own hls."]
        if let drops, let decoderDrops, drops + decoderDrops > 0 {
            notes.append("mpv: frames dropped in the run: \(drops) by the output, \(decoderDrops) by the decoder.")
        }
        return ToolResult(tool: "mpv --vo=null --ao=null", firstFrameMilliseconds: coldStart,
                          measurement: measurement, played: played, notes: notes)
    }
}
