import Foundation

/// The demo channel with closed captions: its video is made by
/// `zapper-caption-encode` (libx264 writing CEA-608 CC1, and CEA-708 service 1
/// when the channel has a SERVICE1 track, into the H.264 SEI, one file per
/// variant), and ffmpeg then muxes that video, copied, with the channel's tones
/// into the HLS variants as for every other channel.
/// Each caption of a script gets an equal slot of the loop: loaded in its
/// first 1.5 s, shown until half a second before the slot ends.
enum CaptionedChannel {
    /// Bumped whenever zapper-caption-encode's output would change (its channel is encoded again).
    static let version = "zapper-caption-encode-2"
    static let leadSeconds = 1.5
    static let gapSeconds = 0.5
    /// Byte pairs that fit in the lead at 30 pictures a second (one pair a picture), with room to spare.
    static let maximumPairs = 40

    struct Cue: Codable, Equatable {
        var start: Double
        var end: Double
        var lines: [String]
    }

    /// When each caption of `track`'s script shows over a loop of `loopSeconds`.
    static func cues(_ track: DemoChannel.CaptionTrack, loopSeconds: Int) -> [Cue] {
        let slot = Double(loopSeconds) / Double(max(track.script.count, 1))
        return track.script.enumerated().map { index, lines in
            Cue(start: Double(index) * slot + leadSeconds, end: Double(index + 1) * slot - gapSeconds, lines: lines)
        }
    }

    /// Why the channel's captions cannot be made, or nil.
    static func problem(_ channel: DemoChannel, loopSeconds: Int) -> String? {
        let tracks = channel.captionTracks
        guard !tracks.isEmpty else { return nil }
        guard tracks.first?.instream == "CC1", tracks.count <= 2, tracks.dropFirst().allSatisfy({ $0.instream == "SERVICE1" }) else {
            return "captions: CC1, then SERVICE1 if any, is all the encoder writes"
        }
        for track in tracks {
            guard !track.script.isEmpty, Double(loopSeconds) / Double(track.script.count) >= leadSeconds + gapSeconds + 1 else {
                return "captions: a script needs one to \(Int(Double(loopSeconds) / (leadSeconds + gapSeconds + 1))) captions"
            }
        }
        for lines in tracks.flatMap(\.script) {
            guard (1...4).contains(lines.count), lines.allSatisfy({ (1...32).contains($0.count) && $0.allSatisfy(\.isASCII) }) else {
                return "captions: \(lines) must be one to four rows of 1 to 32 plain characters"
            }
            let pairs = 4 + lines.reduce(0) { $0 + 2 + ($1.count + 1) / 2 }
            guard pairs <= maximumPairs else { return "captions: \(lines) is too much text to load in \(leadSeconds) s" }
        }
        return nil
    }

    /// The job file `zapper-caption-encode` reads (its `CaptionedVideoJob`).
    struct Job: Encodable {
        struct Variant: Encodable {
            var name: String
            var width: Int
            var height: Int
            var kbps: Int
            var level: Int
        }

        var red: Int
        var green: Int
        var blue: Int
        var seconds: Int
        var frameRate: Int
        var gop: Int
        var variants: [Variant]
        var captions: [Cue]
        /// CEA-708 service 1's.
        var services: [Cue]
    }

    static func job(_ channel: DemoChannel, loopSeconds: Int, segmentSeconds: Int) -> Job {
        let rgb = channel.rgb ?? (0, 0, 0)
        return Job(red: Int(rgb.red), green: Int(rgb.green), blue: Int(rgb.blue), seconds: loopSeconds,
                   frameRate: EncodeRecipe.frameRate, gop: EncodeRecipe.frameRate * segmentSeconds,
                   variants: VideoVariant.all.map { Job.Variant(name: $0.name, width: $0.width, height: $0.height,
                                                                kbps: $0.videoKbps, level: $0.level) },
                   captions: channel.captionTracks.first.map { cues($0, loopSeconds: loopSeconds) } ?? [],
                   services: channel.captionTracks.dropFirst().first.map { cues($0, loopSeconds: loopSeconds) } ?? [])
    }

    /// The encoder: `$ZAPPER_CAPTION_ENCODE`, else beside the running program (the build folder), else on the PATH.
    static func encoderPath() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["ZAPPER_CAPTION_ENCODE"], !explicit.isEmpty { return explicit }
        let name = "zapper-caption-encode"
        if let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        if let found = Tools.find(name) { return found }
        throw OriginError.badCache(path: name, reason: "\(name) is not built (swift build --product \(name))")
    }

    /// Writes the job and runs the encoder: `<directory>/<variant>.ts` for each variant.
    static func encodeVideo(_ channel: DemoChannel, loopSeconds: Int, segmentSeconds: Int, into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let jobFile = directory.appendingPathComponent("job.json")
        try JSONEncoder().encode(job(channel, loopSeconds: loopSeconds, segmentSeconds: segmentSeconds)).write(to: jobFile)
        let encoder = try encoderPath()
        let result = try Tools.run(executable: encoder, [jobFile.path, directory.path])
        guard result.status == 0 else {
            throw OriginError.encodeFailed(channel: channel.number, command: Tools.commandLine(encoder, [jobFile.path, directory.path]),
                                           output: String(result.output.suffix(4000)))
        }
    }
}
