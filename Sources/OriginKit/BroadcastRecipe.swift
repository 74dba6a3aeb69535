import Foundation

/// The `ffmpeg` run that makes one broadcast channel's loop: one MPEG-TS cut
/// into segments of `segmentSeconds` at key frames (the `segment` muxer, which
/// keeps each track's language and audio-description flag in the PMT).
///
/// The picture is drawn as the viewer should see it (its display width is the
/// coded width times the SAR: 1024x576 for 16:9 SD), then squeezed to the coded
/// size, as a broadcaster's anamorphic picture is: the channel's colour, its
/// number and name, and a white bar that moves fast across the lower part. An
/// interlaced channel is drawn at field rate and woven two fields a frame, top
/// field first (`interlace`, no low-pass): shown frame by frame, the bar's edges
/// comb; deinterlaced, they are straight. The sound is a tone per track, a 5.1
/// track's in its centre channel only (where a broadcast's speech is).
public struct BroadcastRecipe: Sendable {
    /// Bumped whenever the output would change, so old caches are not reused.
    public static let version = "zapper-broadcast-recipe-3"
    public static let sampleRate = 48_000
    /// How fast the bar crosses the picture: half its display width a second.
    static let barSpeed = 0.5

    public let channel: BroadcastChannel
    public let loopSeconds: Int
    public let segmentSeconds: Int
    public let fontFile: String

    public init(channel: BroadcastChannel, loopSeconds: Int, segmentSeconds: Int, fontFile: String) {
        self.channel = channel
        self.loopSeconds = loopSeconds
        self.segmentSeconds = segmentSeconds
        self.fontFile = fontFile
    }

    /// Text files drawn by `drawtext` (files avoid filter-graph escaping).
    public var textFiles: [String: String] {
        ["number.txt": "\(channel.number)", "name.txt": channel.name]
    }

    /// Where the moving bar is drawn, in the coded picture's rows: from this
    /// fraction of the height down to the bottom. Above it, the picture is the
    /// channel's colour and its text only.
    public static let barTop = 0.62

    /// `muxerOptions`: the MPEG-TS muxer's own (`mpegts_start_pid=0x200`).
    public func arguments(output: URL, textDirectory: String, muxerOptions: [String] = []) -> [String] {
        var inputs: [String] = [], outputs: [String] = []
        if let video = channel.video, let rate = video.frameRate {
            let drawRate = video.interlaced ? "\(rate.numerator * 2)/\(rate.denominator)" : "\(rate.numerator)/\(rate.denominator)"
            let (width, height) = (video.displayWidth & ~1, video.height)
            let bar = (width: max(16, width / 16) & ~1, height: height - Int(Double(height) * Self.barTop))
            inputs += ["-f", "lavfi", "-i", "color=c=0x\(channel.colour.dropFirst()):s=\(width)x\(height):r=\(drawRate):d=\(loopSeconds)",
                       "-f", "lavfi", "-i", "color=c=white:s=\(bar.width)x\(bar.height):r=\(drawRate):d=\(loopSeconds)"]
            outputs += ["-filter_complex", videoGraph(video, barSpeed: Int(Double(width) * Self.barSpeed), textDirectory: textDirectory),
                        "-map", "[v]"]
            outputs += videoCodec(video, rate: rate)
        }
        let firstAudio = inputs.count / 4
        for (index, track) in channel.audio.enumerated() {
            inputs += ["-f", "lavfi", "-i", audioSource(track)]
            outputs += ["-map", "\(firstAudio + index):a"]
            outputs += audioCodec(track, index: index)
            outputs += ["-metadata:s:a:\(index)", "language=\(track.language)"]
            if track.description == true { outputs += ["-disposition:a:\(index)", "visual_impaired"] }
        }
        // The segment muxer hands the MPEG-TS muxer its options this way.
        let options = muxerOptions + (channel.audio.contains(where: { $0.codec == "latm" }) ? ["mpegts_flags=latm"] : [])
        if !options.isEmpty { outputs += ["-segment_format_options", options.joined(separator: ":")] }
        outputs += ["-metadata", "service_name=\(channel.name)", "-metadata", "service_provider=Zapper Origin",
                    "-f", "segment", "-segment_time", "\(segmentSeconds)", "-segment_format", "mpegts",
                    "-segment_list", output.appendingPathComponent("index.m3u8").path, "-segment_list_type", "m3u8",
                    output.appendingPathComponent("%d.ts").path]
        return ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + inputs + outputs
    }

    private func videoGraph(_ video: BroadcastChannel.Video, barSpeed: Int, textDirectory: String) -> String {
        let font = "fontfile='\(fontFile)'"
        let size = video.height / 4
        var graph = "[0:v][1:v]overlay=x='mod(t*\(barSpeed)\\,W-w)':y=H-h"
        graph += ",drawtext=\(font):textfile='\(textDirectory)/number.txt':fontsize=\(size):fontcolor=white:borderw=\(max(2, size / 36)):bordercolor=black:x=w/16:y=h/12"
        graph += ",drawtext=\(font):textfile='\(textDirectory)/name.txt':fontsize=\(size / 3):fontcolor=white:borderw=\(max(1, size / 100)):bordercolor=black:x=w/16:y=h/12+\(size * 11 / 10)"
        let sar = video.sampleAspect ?? (1, 1)
        graph += ",scale=\(video.width):\(video.height),setsar=\(sar.numerator)/\(sar.denominator)"
        if video.interlaced { graph += ",interlace=scan=tff:lowpass=0" }
        return graph + "[v]"
    }

    private func videoCodec(_ video: BroadcastChannel.Video, rate: (numerator: Int, denominator: Int)) -> [String] {
        let framesPerSegment = rate.numerator * segmentSeconds / rate.denominator
        let kbps = video.width * video.height / 500  // 1080: about 4 Mbit/s; 576: about 0.8
        var args: [String]
        switch video.codec {
        case "mpeg2":
            args = ["-c:v", "mpeg2video", "-b:v", "\(kbps * 3)k", "-maxrate", "\(kbps * 4)k", "-bufsize", "1835k",
                    "-g", "\(max(1, framesPerSegment / 4))", "-bf", "2", "-sc_threshold", "1000000000", "-flags", "+cgop"]
        default:
            args = ["-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-b:v", "\(kbps)k",
                    "-maxrate", "\(kbps * 6 / 5)k", "-bufsize", "\(kbps * 6 / 5)k",
                    "-g", "\(framesPerSegment)", "-keyint_min", "\(framesPerSegment)", "-sc_threshold", "0"]
            if video.interlaced { args += ["-x264-params", "interlaced=1:tff=1"] }
        }
        if video.interlaced {
            if let flags = args.firstIndex(of: "-flags") {
                args[flags + 1] += "+ildct+ilme"
            } else {
                args += ["-flags", "+ildct+ilme"]
            }
            if video.codec == "mpeg2" { args += ["-top", "1"] }
        }
        return args + ["-force_key_frames", "expr:gte(t,n_forced*\(segmentSeconds))", "-pix_fmt", "yuv420p"]
    }

    /// A steady tone; in 5.1, in the centre channel only.
    private func audioSource(_ track: BroadcastChannel.Audio) -> String {
        let tone = "0.3*sin(2*PI*\(track.toneHz)*t)"
        let exprs = track.channels == 6 ? "0|0|\(tone)|0|0|0" : "\(tone)|\(tone)"
        let layout = track.channels == 6 ? "5.1" : "stereo"
        return "aevalsrc=exprs='\(exprs)':channel_layout=\(layout):s=\(Self.sampleRate):d=\(loopSeconds)"
    }

    private func audioCodec(_ track: BroadcastChannel.Audio, index: Int) -> [String] {
        let stream = "a:\(index)"
        switch track.codec {
        case "mp2": return ["-c:\(stream)", "mp2", "-b:\(stream)", "192k"]
        case "ac3": return ["-c:\(stream)", "ac3", "-b:\(stream)", track.channels == 6 ? "384k" : "192k"]
        case "eac3": return ["-c:\(stream)", "eac3", "-b:\(stream)", track.channels == 6 ? "256k" : "128k"]
        default: return ["-c:\(stream)", "aac", "-b:\(stream)", "128k"]  // aac and latm (the muxer's flag)
        }
    }
}
