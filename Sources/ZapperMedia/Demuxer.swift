import CFFmpeg
import ZapperCore

/// libavformat reading a channel's segments from a `ByteQueue` (MPEG-TS, or
/// fMP4 with `format: "mov"`). With the channel's cached codec parameters it
/// skips stream probing; without, it probes briefly and offers the result
/// for caching. Runs on the demux thread: `readPacket` blocks for data.
///
/// Of several audio streams (languages muxed in one MPEG-TS), one is chosen
/// (`AudioChoice`, default the first) and only its packets come out of
/// `readPacket`; the others are discarded in libavformat.
public final class Demuxer {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let io: CustomIO
    /// One entry per stream index.
    public let parameters: [CodecParameters]
    /// Whether the streams were probed (no cached parameters were usable).
    public let probed: Bool
    /// The audio streams in stream order, with their languages.
    public let audioStreams: [AudioStream]
    /// The stream index of the audio stream whose packets are read; nil: no audio.
    public private(set) var selectedAudio: Int?

    public init(queue: ByteQueue, format formatName: String = "mpegts", cached: [CodecParameters]? = nil,
                audio: AudioChoice = .first) throws {
        io = try CustomIO(queue: queue)
        guard let context = avformat_alloc_context() else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "avformat_alloc_context")
        }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Enough to find the program tables and a keyframe, not a whole segment.
        context.pointee.probesize = 512 * 1024
        context.pointee.max_analyze_duration = 500_000
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let input = av_find_input_format(formatName)
        let status = avformat_open_input(&opened, nil, input, nil)
        guard status >= 0, let opened else {
            throw AVError(code: status, operation: "avformat_open_input (\(formatName))")
        }
        format = opened

        // Cached parameters are usable when every stream's PID is known.
        let streams = (0..<Int(opened.pointee.nb_streams)).map { opened.pointee.streams[$0]! }
        let cachedByID = Dictionary((cached ?? []).map { ($0.streamID, $0) }, uniquingKeysWith: { first, _ in first })
        if let cached, !cached.isEmpty, !streams.isEmpty, streams.allSatisfy({ cachedByID[$0.pointee.id] != nil }) {
            parameters = streams.map { cachedByID[$0.pointee.id]! }
            probed = false
        } else {
            let found = avformat_find_stream_info(opened, nil)
            guard found >= 0 else {
                avformat_close_input(&format)
                throw AVError(code: found, operation: "avformat_find_stream_info")
            }
            let all = (0..<Int(opened.pointee.nb_streams)).map { opened.pointee.streams[$0]! }
            do {
                parameters = try all.map { try CodecParameters(copying: $0.pointee.codecpar, streamID: $0.pointee.id) }
            } catch {
                avformat_close_input(&format)
                throw error
            }
            probed = true
        }
        guard parameters.contains(where: { $0.kind == .video || $0.kind == .audio }) else {
            avformat_close_input(&format)
            throw AVError(code: zapper_averror_invaliddata(), operation: "\(formatName): no audio or video stream found")
        }
        var audioStreams: [AudioStream] = []
        for (index, stream) in parameters.enumerated() where stream.kind == .audio {
            let avStream = opened.pointee.streams[index]!
            let language = av_dict_get(avStream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
            let description = avStream.pointee.disposition & AV_DISPOSITION_VISUAL_IMPAIRED != 0
            audioStreams.append(AudioStream(index: index, streamID: avStream.pointee.id, language: language,
                                            codecName: stream.codecName, isDescription: description))
        }
        self.audioStreams = audioStreams
        select(audio)
    }

    /// A segment in its HLS container: MPEG-TS, or fragmented MP4 with the
    /// initialization section at the head of the queue (libavformat's mov
    /// demuxer, which reads `moov` then the fragments without seeking).
    public convenience init(queue: ByteQueue, container: SegmentContainer, cached: [CodecParameters]? = nil,
                            audio: AudioChoice = .first) throws {
        try self.init(queue: queue, format: Self.formatName(container), cached: cached, audio: audio)
    }

    public static func formatName(_ container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: "mpegts"
        case .fragmentedMP4: "mp4"
        }
    }

    /// Chooses the audio stream to read from the next packet on.
    public func select(_ choice: AudioChoice) {
        selectedAudio = choice.pick(from: audioStreams)
        for stream in audioStreams {
            format!.pointee.streams[stream.index]!.pointee.discard = stream.index == selectedAudio ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    deinit {
        avformat_close_input(&format)
    }

    /// The time base of a stream, as a fraction of a second.
    public func timeBase(stream: Int) -> (numerator: Int32, denominator: Int32) {
        let base = format!.pointee.streams[stream]!.pointee.time_base
        return (base.num, base.den)
    }

    /// The stream index of the first stream of a kind, if any.
    public func firstStream(_ kind: MediaKind) -> Int? {
        parameters.firstIndex { $0.kind == kind }
    }

    /// The next packet (never one of an audio stream not chosen), or nil at the end of the stream.
    public func readPacket() throws -> Packet? {
        while true {
            let packet = try Packet()
            let status = av_read_frame(format, packet.pointer)
            if status == zapper_averror_eof() { return nil }
            try AVError.check(status, "av_read_frame")
            // A stream that appeared after the open (a PMT that adds one mid-segment) has no
            // parameters here: skipped until the next segment's demuxer sees it from the start.
            guard parameters.indices.contains(packet.streamIndex) else { continue }
            if parameters[packet.streamIndex].kind == .audio, packet.streamIndex != selectedAudio { continue }
            return packet
        }
    }
}
