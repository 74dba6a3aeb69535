import Foundation

/// A broadcast channel's DVB subtitles (`BroadcastChannel.subtitles`): each page's text drawn
/// white on black by ffmpeg into a grey bitmap, the pages encoded as a `dvb_subtitle` stream by
/// `zapper-caption-encode --dvbsub` (libavcodec's `dvbsub`; the ffmpeg tool cannot make bitmap
/// subtitles from anything it reads here), each segment's part of them muxed beside that
/// segment's picture and sound with ffmpeg, copied, on the loop's own clock.
/// Each page shows for an equal part of the loop, from half a second into it to half a second
/// before its end. A stream with a teletext page is teletext subtitles instead (`TeletextPES`),
/// each page's text sent as the rows of that page. The first stream's pages sit at the bottom of the 720x576 canvas, the second's
/// higher up, between the channel's name and its moving bar, so a snapshot tells which is shown.
enum BroadcastSubtitles {
    static let mostStreams = 2
    /// Part of a subtitled channel's cache key: raise it when what the writers write changes
    /// (`DVBSubtitleWriter`, `TeletextPES`), which the channel's entry cannot tell.
    static let writerVersion = 2
    static func region(stream number: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (x: 40, y: number == 0 ? 480 : 280, width: 640, height: 72)
    }

    static func add(_ channel: BroadcastChannel, recipe: BroadcastRecipe, loopSegments: Int, in folder: URL) throws -> [Double] {
        let tracks = channel.subtitles ?? []
        let work = folder.appendingPathComponent("subtitles")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let durations = try DerivedFolder.segmentDurations(folder, expected: loopSegments)
        let startPTS = try firstPTS(folder.appendingPathComponent("0.ts"), channel: channel.number)
        var jobs: [[String: Any]] = []
        for (number, track) in tracks.enumerated() {
            let slot = Double(recipe.loopSeconds) / Double(track.script.count)
            var pages: [[String: Any]] = []
            let region = Self.region(stream: number)
            if let page = track.teletextPage {
                // Teletext: each page its text, drawn by the receiver.
                for (index, text) in track.script.enumerated() {
                    pages.append(["start": Double(index) * slot + 0.5, "end": Double(index + 1) * slot - 0.5, "text": text])
                }
                jobs.append(["startPTS": startPTS, "language": track.language, "pages": pages, "teletextPage": page])
                continue
            }
            for (index, text) in track.script.enumerated() {
                let bitmap = work.appendingPathComponent("\(number)-\(index).gray")
                let textFile = work.appendingPathComponent("\(number)-\(index).txt")
                try Data(text.utf8).write(to: textFile)
                try DerivedFolder.ffmpeg(["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                                          "-f", "lavfi", "-i", "color=c=black:s=\(region.width)x\(region.height):d=1",
                                          "-vf", "drawtext=fontfile='\(recipe.fontFile)':textfile='\(textFile.path)':fontsize=44:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2",
                                          "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", bitmap.path], channel: channel.number)
                pages.append(["start": Double(index) * slot + 0.5, "end": Double(index + 1) * slot - 0.5,
                              "x": region.x, "y": region.y, "width": region.width, "height": region.height, "bitmap": bitmap.path])
            }
            jobs.append(["startPTS": startPTS, "language": track.language, "pages": pages])
        }
        // Each segment gets the pages and clears that fall in it, muxed beside its picture and
        // sound, copied: the segments stay as they were cut (every one lists the subtitle streams).
        var from = 0.0
        for (segment, duration) in durations.enumerated() {
            var inputs: [String] = []
            for (number, job) in jobs.enumerated() {
                var part = job
                part["from"] = from
                part["to"] = segment == durations.count - 1 ? Double(recipe.loopSeconds) * 2 : from + duration
                let file = work.appendingPathComponent("\(number)-\(segment).json")
                try JSONSerialization.data(withJSONObject: part).write(to: file)
                let output = work.appendingPathComponent("\(number)-\(segment).ts")
                try runEncoder(["--dvbsub", file.path, output.path], channel: channel.number)
                inputs.append(output.path)
            }
            let original = folder.appendingPathComponent("\(segment).ts")
            let muxed = work.appendingPathComponent("\(segment).ts")
            var args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", original.path]
            for input in inputs { args += ["-i", input] }
            args += ["-map", "0"]
            for index in inputs.indices { args += ["-map", "\(index + 1):s"] }
            args += ["-c", "copy", "-copyts", "-muxdelay", "0", "-muxpreload", "0"]
            for (index, track) in tracks.enumerated() { args += ["-metadata:s:s:\(index)", "language=\(track.language)"] }
            try DerivedFolder.ffmpeg(args + ["-f", "mpegts", muxed.path], channel: channel.number)
            try FileManager.default.removeItem(at: original)
            try FileManager.default.moveItem(at: muxed, to: original)
            from += duration
        }
        return durations
    }

    private static func runEncoder(_ arguments: [String], channel: Int) throws {
        let encoder = try CaptionedChannel.encoderPath()
        let result = try Tools.run(executable: encoder, arguments)
        guard result.status == 0 else {
            throw OriginError.encodeFailed(channel: channel, command: Tools.commandLine(encoder, arguments), output: String(result.output.suffix(4000)))
        }
    }

    private static func firstPTS(_ file: URL, channel: Int) throws -> Int64 {
        let result = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_pts", "-of", "csv=p=0", file.path])
        guard result.status == 0, let first = result.output.split(whereSeparator: \.isNewline).first,
              let value = Int64(first.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) else {
            throw OriginError.badCache(path: file.path, reason: "ffprobe could not read its start PTS: \(result.output)")
        }
        return value
    }
}
