import Foundation

/// Broadcast streams that change as they play (`BroadcastChannel.Change`), made by ffmpeg:
///
/// - `pmt`: the channel encoded twice, the second time with other PIDs (elementary streams
///   from 0x200) under the next version of its PAT and PMT (`tables_version` 1: a PMT that
///   changes must, and a demuxer that sees one version again ignores it) and the change's
///   tone; the loop's first half comes from the first, its second half from the second, so
///   that twice a loop the PMT and the PIDs change mid-stream, as a reconfigured headend's do,
///   on the same clock.
/// - `multiplex`: two programmes in one TS (service 1 the channel, service `serviceID` the
///   change's colour and tone), muxed in one run (the segment muxer keeps one programme only)
///   and cut in equal slices at packet boundaries. Raw TS only: its slices do not each start
///   at a key frame.
enum BroadcastForms {
    static func encode(_ channel: BroadcastChannel, change: BroadcastChannel.Change, recipe: BroadcastRecipe,
                       textDirectory: String, loopSegments: Int, into folder: URL) throws -> [Double] {
        switch change.kind {
        case "pmt": return try pmtChange(channel, change: change, recipe: recipe, textDirectory: textDirectory,
                                         loopSegments: loopSegments, into: folder)
        default: return try multiplex(channel, change: change, recipe: recipe, loopSegments: loopSegments, into: folder)
        }
    }

    private static func pmtChange(_ channel: BroadcastChannel, change: BroadcastChannel.Change, recipe: BroadcastRecipe,
                                  textDirectory: String, loopSegments: Int, into folder: URL) throws -> [Double] {
        var second = channel
        second.audio = channel.audio.map { var track = $0; track.toneHz = change.toneHz; return track }
        let other = folder.appendingPathComponent("changed")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try DerivedFolder.ffmpeg(recipe.arguments(output: folder, textDirectory: textDirectory), channel: channel.number)
        let changed = BroadcastRecipe(channel: second, loopSeconds: recipe.loopSeconds, segmentSeconds: recipe.segmentSeconds,
                                      fontFile: recipe.fontFile)
        try DerivedFolder.ffmpeg(changed.arguments(output: other, textDirectory: textDirectory,
                                                   muxerOptions: ["mpegts_start_pid=0x200", "tables_version=1"]),
                                 channel: channel.number)
        let durations = try DerivedFolder.segmentDurations(folder, expected: loopSegments)
        for index in (loopSegments / 2)..<loopSegments {
            let name = "\(index).ts"
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try FileManager.default.moveItem(at: other.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: other)
        return durations
    }

    private static func multiplex(_ channel: BroadcastChannel, change: BroadcastChannel.Change, recipe: BroadcastRecipe,
                                  loopSegments: Int, into folder: URL) throws -> [Double] {
        guard let video = channel.video, let rate = video.frameRate, let colour = change.colour, let service = change.serviceID else {
            throw OriginError.badCatalog(path: "channels.json", reason: "broadcast channel \(channel.number): a multiplex needs a picture, a colour and a service id")
        }
        let size = "\(video.width)x\(video.height)", r = "\(rate.numerator)/\(rate.denominator)", d = recipe.loopSeconds
        let gop = rate.numerator * recipe.segmentSeconds / rate.denominator
        let whole = folder.appendingPathComponent("multiplex.ts")
        var args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
        for hex in [channel.colour, colour] {
            args += ["-f", "lavfi", "-i", "color=c=0x\(hex.dropFirst()):s=\(size):r=\(r):d=\(d)"]
        }
        for tone in [channel.audio[0].toneHz, change.toneHz] {
            args += ["-f", "lavfi", "-i", "aevalsrc=exprs='0.3*sin(2*PI*\(tone)*t)|0.3*sin(2*PI*\(tone)*t)':s=\(BroadcastRecipe.sampleRate):d=\(d)"]
        }
        args += ["-map", "0:v", "-map", "1:v", "-map", "2:a", "-map", "3:a",
                 "-c:v", "libx264", "-preset", "veryfast", "-b:v", "600k", "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0",
                 "-pix_fmt", "yuv420p", "-c:a", "mp2", "-b:a", "192k",
                 "-metadata:s:a:0", "language=\(channel.audio[0].language)", "-metadata:s:a:1", "language=\(channel.audio[0].language)",
                 "-program", "program_num=1:title=\(channel.name):st=0:st=2",
                 "-program", "program_num=\(service):title=\(channel.name) 2:st=1:st=3",
                 "-f", "mpegts", whole.path]
        try DerivedFolder.ffmpeg(args, channel: channel.number)
        let bytes = try Data(contentsOf: whole)
        let packets = bytes.count / 188
        for index in 0..<loopSegments {
            let from = packets * index / loopSegments * 188, to = packets * (index + 1) / loopSegments * 188
            try bytes[from..<to].write(to: folder.appendingPathComponent("\(index).ts"))
        }
        try FileManager.default.removeItem(at: whole)
        return Array(repeating: Double(recipe.segmentSeconds), count: loopSegments)
    }
}
