import Foundation

/// One video variant of every channel's master playlist.
public struct VideoVariant: Sendable, Equatable {
    public let name: String
    public let width: Int
    public let height: Int
    public let videoKbps: Int
    public let audioKbps: Int
    /// H.264 High profile level, e.g. 40 for level 4.0.
    public let level: Int

    /// RFC 6381 codec string of the variant (H.264 High + AAC-LC).
    public var codecs: String { "avc1.6400\(String(format: "%02x", level)),mp4a.40.2" }

    public static let all: [VideoVariant] = [
        VideoVariant(name: "240p", width: 426, height: 240, videoKbps: 400, audioKbps: 96, level: 30),
        VideoVariant(name: "720p", width: 1280, height: 720, videoKbps: 2_500, audioKbps: 128, level: 31),
        VideoVariant(name: "1080p", width: 1920, height: 1080, videoKbps: 5_000, audioKbps: 128, level: 40),
    ]
}

/// The `ffmpeg` command that renders and encodes one channel's loop: the
/// picture (background colour, a moving test pattern, temporal noise for
/// realistic detail, the number, name and a timecode burned in large), the
/// tones, and for the sync channel a white flash with a beep every second.
/// All variants come out of one run, so they share their timestamps.
///
/// Audio: every audio track of the channel is muxed into every variant's
/// MPEG-TS, in catalog order, each with its ISO 639-2 language in the PMT.
/// The master playlist declares them as EXT-X-MEDIA TYPE=AUDIO without a
/// URI ("in the main stream"). Separate audio-only renditions would be the
/// better HLS (less bandwidth per language), but muxed tracks keep the
/// player's single demuxer per channel; the player picks its track there.
public struct EncodeRecipe: Sendable {
    /// Bumped whenever the output would change, so old caches are not reused.
    public static let version = "zapper-origin-recipe-4"
    public static let frameRate = 30
    public static let sampleRate = 48_000

    public let channel: DemoChannel
    public let loopSeconds: Int
    public let segmentSeconds: Int
    public let fontFile: String

    public init(channel: DemoChannel, loopSeconds: Int, segmentSeconds: Int, fontFile: String) {
        self.channel = channel
        self.loopSeconds = loopSeconds
        self.segmentSeconds = segmentSeconds
        self.fontFile = fontFile
    }

    public static func videoDirectory(_ variant: VideoVariant) -> String { variant.name }
    public static func subtitleDirectory(language: String) -> String { "subs-\(language)" }

    var hexColour: String { "0x" + channel.colour.dropFirst() }

    /// The audio expression for a track: a steady tone, plus on the sync
    /// channel a loud beep in the first `beepMs` of every second.
    func audioExpression(toneHz: Int, levelDB: Double = 0) -> String {
        let amplitude = 0.3 * pow(10, levelDB / 20)
        var expr = "\(String(format: "%.6f", amplitude))*sin(2*PI*\(toneHz)*t)"
        if let sync = channel.syncFlash {
            let seconds = Double(sync.beepMs) / 1000
            expr += "+0.6*lt(mod(t,1),\(seconds))*sin(2*PI*\(sync.beepHz)*t)"
        }
        return "aevalsrc=exprs='\(expr)|\(expr)':s=\(Self.sampleRate):d=\(loopSeconds)"
    }

    /// The filter graph producing `[v0]`, `[v1]`, … one per variant.
    func filterGraph(textDirectory: String) -> String {
        let font = "fontfile='\(fontFile)'"
        var chain = "[1:v]format=yuv420p[pattern];"
        chain += "[0:v][pattern]overlay=x='(W-w)/2+600*sin(2*PI*t/\(loopSeconds))':y=660"
        chain += ",noise=alls=8:allf=t"
        chain += ",drawtext=\(font):textfile='\(textDirectory)/number.txt':fontsize=360:fontcolor=white:borderw=10:bordercolor=black:x=120:y=110"
        chain += ",drawtext=\(font):textfile='\(textDirectory)/name.txt':fontsize=110:fontcolor=white:borderw=5:bordercolor=black:x=560:y=170"
        chain += ",drawtext=\(font):textfile='\(textDirectory)/timecode.txt':fontsize=80:fontcolor=white:borderw=4:bordercolor=black:x=560:y=320"
        if channel.syncFlash != nil {
            // The first frame of every second is white.
            chain += ",drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='lt(mod(t,1),0.02)'"
        }
        let variants = VideoVariant.all
        chain += ",split=\(variants.count)" + variants.indices.map { "[full\($0)]" }.joined() + ";"
        chain += variants.enumerated().map { index, variant in
            "[full\(index)]scale=\(variant.width):\(variant.height)[v\(index)]"
        }.joined(separator: ";")
        return chain
    }

    /// Text files drawn by `drawtext` (files avoid filter-graph escaping).
    public var textFiles: [String: String] {
        ["number.txt": "\(channel.number)", "name.txt": channel.name, "timecode.txt": "%{pts:hms}",
         "initials.txt": channel.initials]
    }

    /// `captionedVideo`: the folder of a captions channel's video (`CaptionedChannel`), copied
    /// into the variants as it is (re-encoding it would lose the captions in its SEI).
    public func arguments(outputDirectory: String, textDirectory: String, captionedVideo: String? = nil) -> [String] {
        let gop = Self.frameRate * segmentSeconds
        var args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
        if let captionedVideo {
            for variant in VideoVariant.all { args += ["-i", "\(captionedVideo)/\(variant.name).ts"] }
        } else {
            args += ["-f", "lavfi", "-i", "color=c=\(hexColour):s=1920x1080:r=\(Self.frameRate):d=\(loopSeconds)",
                     "-f", "lavfi", "-i", "testsrc2=s=640x360:r=\(Self.frameRate):d=\(loopSeconds)"]
        }
        let firstAudio = captionedVideo == nil ? 2 : VideoVariant.all.count
        for track in channel.audio {
            args += ["-f", "lavfi", "-i", audioExpression(toneHz: track.toneHz, levelDB: track.levelDB ?? 0)]
        }
        if captionedVideo == nil { args += ["-filter_complex", filterGraph(textDirectory: textDirectory)] }
        func hls(_ directory: String) -> [String] {
            ["-f", "hls", "-hls_time", "\(segmentSeconds)", "-hls_list_size", "0",
             "-hls_segment_filename", "\(outputDirectory)/\(directory)/%d.ts",
             "\(outputDirectory)/\(directory)/index.m3u8"]
        }
        for (index, variant) in VideoVariant.all.enumerated() {
            args += ["-map", captionedVideo == nil ? "[v\(index)]" : "\(index):v"]
            for input in channel.audio.indices { args += ["-map", "\(firstAudio + input):a"] }
            if captionedVideo == nil {
                args += ["-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high",
                         "-level:v", String(format: "%.1f", Double(variant.level) / 10),
                         "-b:v", "\(variant.videoKbps)k", "-maxrate", "\(variant.videoKbps * 6 / 5)k",
                         "-bufsize", "\(variant.videoKbps * 6 / 5)k",
                         "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0",
                         "-force_key_frames", "expr:gte(t,n_forced*\(segmentSeconds))"]
            } else {
                args += ["-c:v", "copy"]
            }
            args += ["-c:a", "aac", "-b:a", "\(variant.audioKbps)k", "-ac", "2", "-ar", "\(Self.sampleRate)"]
            for (track, audio) in channel.audio.enumerated() {
                args += ["-metadata:s:a:\(track)", "language=\(audio.streamLanguage ?? "und")"]
            }
            args += hls(Self.videoDirectory(variant))
        }
        return args
    }

    /// A 256x256 PNG logo: the channel colour, a white frame and the initials.
    public func logoArguments(output: String, textDirectory: String) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", "color=c=\(hexColour):s=256x256:d=1",
         "-vf", "drawbox=x=0:y=0:w=iw:h=ih:color=white:t=12,"
             + "drawtext=fontfile='\(fontFile)':textfile='\(textDirectory)/initials.txt':fontsize=110:fontcolor=white:"
             + "borderw=4:bordercolor=black:x=(w-text_w)/2:y=(h-text_h)/2",
         "-frames:v", "1", "-update", "1", output]
    }
}
