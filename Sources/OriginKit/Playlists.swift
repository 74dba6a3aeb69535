import Foundation

/// Writes the master and live media playlists of a channel, and its WebVTT
/// subtitle segments.
public struct PlaylistWriter: Sendable {
    public let timeline: LiveTimeline

    public init(timeline: LiveTimeline) {
        self.timeline = timeline
    }

    /// Bits per second of a rendition: its peak segment and its average.
    static func bitrates(sizes: [Int], durations: [Double]) -> (peak: Int, average: Int) {
        guard !sizes.isEmpty, sizes.count == durations.count else { return (0, 0) }
        let peak = zip(sizes, durations).map { Double($0) * 8 / max($1, 0.001) }.max() ?? 0
        let average = Double(sizes.reduce(0, +)) * 8 / max(durations.reduce(0, +), 0.001)
        return (Int(peak.rounded(.up)), Int(average.rounded(.up)))
    }

    /// The master playlist; `fragmented`: FragmentedMP4's variants (first audio track only, no subtitles).
    public func master(channel: DemoChannel, library: EncodedLibrary, fragmented: Bool = false) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(fragmented ? 7 : 3)", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let entry = library.entry(channel: channel.number)
        func bitrates(_ rendition: String) -> (peak: Int, average: Int) {
            fragmented
                ? Self.bitrates(sizes: library.fragmentedSizes(channel: channel.number, rendition: rendition),
                                durations: entry?.fragmented?[rendition] ?? [])
                : Self.bitrates(sizes: library.segmentSizes(channel: channel.number, rendition: rendition),
                                durations: entry?.renditions[rendition] ?? [])
        }
        // The audio tracks are muxed into every variant (see EncodeRecipe), so
        // their renditions have no URI and the variants' bandwidth covers them.
        let hasAudioGroup = channel.audio.count > 1 && !fragmented
        if hasAudioGroup {
            for (index, track) in channel.audio.enumerated() {
                var attributes = "TYPE=AUDIO,GROUP-ID=\"audio\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\","
                attributes += index == 0 ? "DEFAULT=YES,AUTOSELECT=YES" : "DEFAULT=NO,AUTOSELECT=YES"
                lines.append("#EXT-X-MEDIA:\(attributes)")
            }
        }
        for track in fragmented ? [] : channel.subtitleTracks {
            lines.append("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\","
                + "DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI=\"\(EncodeRecipe.subtitleDirectory(language: track.language))/index.m3u8\"")
        }
        // Captions travel in the picture's SEI: their renditions have no URI.
        for track in fragmented ? [] : channel.captionTracks {
            lines.append("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\","
                + "INSTREAM-ID=\"\(track.instream)\",DEFAULT=NO,AUTOSELECT=YES")
        }
        for variant in VideoVariant.all {
            let rates = bitrates(EncodeRecipe.videoDirectory(variant))
            var attributes = "BANDWIDTH=\(rates.peak),AVERAGE-BANDWIDTH=\(rates.average),"
            attributes += "RESOLUTION=\(variant.width)x\(variant.height),FRAME-RATE=\(EncodeRecipe.frameRate).000,"
            attributes += "CODECS=\"\(variant.codecs)\""
            if hasAudioGroup { attributes += ",AUDIO=\"audio\"" }
            if !channel.subtitleTracks.isEmpty && !fragmented { attributes += ",SUBTITLES=\"subs\"" }
            if !channel.captionTracks.isEmpty && !fragmented { attributes += ",CLOSED-CAPTIONS=\"cc\"" }
            lines.append("#EXT-X-STREAM-INF:\(attributes)")
            lines.append("\(EncodeRecipe.videoDirectory(variant))/index.m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// SplitAudio's master playlist: video-only variants, and each audio
    /// language a rendition with its own media playlist (the first is the
    /// default). A variant's bandwidth counts its video and its largest audio.
    public func splitMaster(channel: DemoChannel, library: EncodedLibrary) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let entry = library.entry(channel: channel.number)
        func bitrates(_ folder: String) -> (peak: Int, average: Int) {
            Self.bitrates(sizes: library.segmentSizes(channel: channel.number, rendition: folder),
                          durations: entry?.renditions[folder] ?? [])
        }
        var audio = (peak: 0, average: 0)
        for (index, track) in channel.audio.enumerated() {
            let folder = SplitAudio.audioFolder(language: track.language)
            let rates = bitrates(folder)
            audio = (max(audio.peak, rates.peak), max(audio.average, rates.average))
            lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\","
                + (index == 0 ? "DEFAULT=YES" : "DEFAULT=NO") + ",AUTOSELECT=YES,CHANNELS=\"2\",URI=\"\(folder)/index.m3u8\"")
        }
        for name in SplitAudio.videoVariants {
            guard let variant = VideoVariant.all.first(where: { $0.name == name }) else { continue }
            let video = bitrates(SplitAudio.videoFolder(name))
            var attributes = "BANDWIDTH=\(video.peak + audio.peak),AVERAGE-BANDWIDTH=\(video.average + audio.average),"
            attributes += "RESOLUTION=\(variant.width)x\(variant.height),FRAME-RATE=\(EncodeRecipe.frameRate).000,"
            attributes += "CODECS=\"\(variant.codecs)\",AUDIO=\"aac\""
            lines.append("#EXT-X-STREAM-INF:\(attributes)")
            lines.append("\(SplitAudio.videoFolder(name))/index.m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A live media playlist as it stands at `time`; with `encryptedChannel`,
    /// its segments are AES-128 encrypted (`SegmentEncryption`'s keys and IVs).
    /// With `initSection`, its segments are fragmented MP4 after that EXT-X-MAP.
    /// With `rangesOf`, every segment is an EXT-X-BYTERANGE of that one file,
    /// the loop's segments back to back (their sizes `durations`' companions).
    public func media(durations: [Double], segmentExtension: String, at time: Double, encryptedChannel: Int? = nil,
                      initSection: String? = nil, rangesOf file: (name: String, sizes: [Int])? = nil) -> String {
        let window = timeline.window(at: time)
        let target = Int((durations.max() ?? Double(timeline.segmentSeconds)).rounded())
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(initSection != nil ? 7 : file != nil ? 4 : 3)",
                     "#EXT-X-TARGETDURATION:\(target)",
                     "#EXT-X-MEDIA-SEQUENCE:\(window.lowerBound)",
                     "#EXT-X-DISCONTINUITY-SEQUENCE:\(timeline.discontinuitySequence(first: window.lowerBound))",
                     "#EXT-X-INDEPENDENT-SEGMENTS"]
        if let initSection { lines.append("#EXT-X-MAP:URI=\"\(initSection)\"") }
        let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for sequence in window {
            if timeline.startsLoop(sequence) { lines.append("#EXT-X-DISCONTINUITY") }
            if let channel = encryptedChannel, sequence == window.lowerBound || SegmentEncryption.startsPeriod(sequence) {
                lines.append(SegmentEncryption.keyTag(channel: channel, sequence: sequence))
            }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(dateStyle.format(timeline.programDate(of: sequence)))")
            let duration = durations[timeline.loopIndex(of: sequence) % max(durations.count, 1)]
            lines.append("#EXTINF:\(String(format: "%.6f", duration)),")
            if let file, file.sizes.indices.contains(timeline.loopIndex(of: sequence)) {
                let index = timeline.loopIndex(of: sequence)
                lines.append("#EXT-X-BYTERANGE:\(file.sizes[index])@\(file.sizes.prefix(index).reduce(0, +))")
                lines.append(file.name)
            } else {
                lines.append("\(sequence).\(segmentExtension)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The WebVTT segment `sequence`: one cue inside the segment's time, on
    /// the loop's own timeline (the segments before it in the loop last
    /// `loopDurations`), mapped onto the video's PTS by X-TIMESTAMP-MAP. Its
    /// text names the channel and the media sequence number, so a client can
    /// check that a cue shows with its own segment's pictures.
    public func subtitleSegment(channel: DemoChannel, track: DemoChannel.SubtitleTrack, sequence: Int64,
                                loopDurations: [Double], videoStartPTS: Int64) -> String {
        let loopIndex = timeline.loopIndex(of: sequence)
        let segmentStart = loopDurations.prefix(loopIndex).reduce(0, +)
        let duration = loopDurations.indices.contains(loopIndex) ? loopDurations[loopIndex] : Double(timeline.segmentSeconds)
        return """
            WEBVTT
            X-TIMESTAMP-MAP=MPEGTS:\(videoStartPTS),LOCAL:00:00:00.000

            \(sequence)
            \(Self.cueTime(segmentStart + 0.1)) --> \(Self.cueTime(segmentStart + duration - 0.1)) line:85%
            \(Self.cueText(channel: channel, track: track, sequence: sequence))
            (\(track.name), \(loopIndex + 1) of \(timeline.loopSegments))

            """
    }

    /// The first line of the cue of segment `sequence`, e.g. "Red One · en · cue 881234".
    public static func cueText(channel: DemoChannel, track: DemoChannel.SubtitleTrack, sequence: Int64) -> String {
        "\(channel.name) · \(track.language) · cue \(sequence)"
    }

    static func cueTime(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }
}
