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
///
/// A multi-programme TS (a multiplex) plays one programme: the one asked for (its service
/// id, the lineup's `#EXTVLCOPT:program=N`), else the first with a picture; the others'
/// packets are passed over. Streams that appear while it is read (a PMT that changed: a
/// headend reconfigured, an SD programme turning HD) are taken on at once, as the programme's
/// new streams: their packets come out, and its audio is chosen again among them.
public final class Demuxer {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let io: CustomIO
    /// One entry per stream index.
    public private(set) var parameters: [CodecParameters]
    /// Whether the streams were probed (no cached parameters were usable).
    public let probed: Bool
    /// The audio streams in stream order, with their languages (the programme's).
    public private(set) var audioStreams: [AudioStream]
    /// The stream index of the audio stream whose packets are read; nil: no audio.
    public private(set) var selectedAudio: Int?
    /// The programme's DVB subtitle streams, and the one whose packets are read (nil: none).
    public private(set) var subtitleStreams: [SubtitleStream] = []
    public private(set) var selectedSubtitles: Int?
    /// The service id of the programme played; nil: the container has no programmes.
    public var program: Int32? { programmes.id }
    private var programmes = ProgrammeFollower()
    private var audioChoice: AudioChoice
    /// How often the programme changed while it was read (a new PMT, new streams).
    public private(set) var changes = 0
    /// The PIDs of the programme played (all streams without programmes).
    public var playedStreamIDs: [Int32] { parameters.indices.filter { programmes.plays($0) }.map { parameters[$0].streamID } }
    /// Whether the programme played has a picture (a radio service in a multiplex has none).
    public var readsPicture: Bool { parameters.indices.contains { parameters[$0].kind == .video && programmes.plays($0) } }

    public init(queue: ByteQueue, format formatName: String = "mpegts", cached: [CodecParameters]? = nil,
                audio: AudioChoice = .first, program wanted: Int? = nil) throws {
        audioChoice = audio
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
        audioStreams = []
        let kinds = parameters.map(\.kind)
        programmes.choose(in: opened, wanted: wanted) { kinds.indices.contains($0) && kinds[$0] == .video }
        audioStreams = programmeAudio()
        subtitleStreams = programmeSubtitles()
        select(audio)
        selectSubtitles(nil)
    }

    /// The DVB subtitle streams of the programme played.
    /// DVB subtitle streams, and the subtitle pages a teletext stream's descriptor lists (one
    /// each: a teletext PID carries several languages on pages of their own).
    private func programmeSubtitles() -> [SubtitleStream] {
        parameters.indices.filter { ["dvb_subtitle", "dvb_teletext"].contains(parameters[$0].codecName) && programmes.plays($0) }
            .flatMap { index -> [SubtitleStream] in
                let avStream = format!.pointee.streams[index]!
                let language = av_dict_get(avStream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
                guard parameters[index].codecName == "dvb_teletext" else {
                    return [SubtitleStream(index: index, streamID: avStream.pointee.id, language: language, codecName: parameters[index].codecName,
                                           hearingImpaired: avStream.pointee.disposition & AV_DISPOSITION_HEARING_IMPAIRED != 0)]
                }
                let codec = avStream.pointee.codecpar.pointee
                let extradata = codec.extradata.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(max(0, min(codec.extradata_size, 512))))) } ?? []
                let languages = (language ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                return TeletextEntry.subtitlePages(extradata).map { entry in
                    SubtitleStream(index: index, streamID: avStream.pointee.id,
                                   language: languages.indices.contains(entry.position) ? languages[entry.position] : nil,
                                   codecName: "dvb_teletext", hearingImpaired: entry.hearingImpaired, teletextPage: entry.page)
                }
            }
    }

    /// Reads the packets of subtitle stream `index` (one of `subtitleStreams`) from the next on; nil: none.
    public func selectSubtitles(_ index: Int?) {
        selectedSubtitles = subtitleStreams.contains { $0.index == index } ? index : nil
        for (stream, parameters) in parameters.enumerated() where parameters.kind == .subtitle {
            format!.pointee.streams[stream]!.pointee.discard = stream == selectedSubtitles ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// The audio streams of the programme played.
    private func programmeAudio() -> [AudioStream] {
        parameters.indices.filter { parameters[$0].kind == .audio && programmes.plays($0) }.map { index in
            let avStream = format!.pointee.streams[index]!
            let language = av_dict_get(avStream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
            let description = avStream.pointee.disposition & AV_DISPOSITION_VISUAL_IMPAIRED != 0
            return AudioStream(index: index, streamID: avStream.pointee.id, language: language,
                               codecName: parameters[index].codecName, isDescription: description)
        }
    }

    /// Follows the programme: streams libavformat found after the start are taken on, and a
    /// PMT that lists other streams makes them the ones read, its audio chosen again.
    private func followProgramme() throws {
        guard let format else { return }
        let first = parameters.count
        for index in first..<max(first, Int(format.pointee.nb_streams)) {
            let stream = format.pointee.streams[index]!
            parameters.append(try CodecParameters(copying: stream.pointee.codecpar, streamID: stream.pointee.id))
        }
        guard programmes.changed(in: format) != nil || parameters.count > first else { return }
        changes += 1
        audioStreams = programmeAudio()
        let chosenSubtitles = subtitleStreams.first { $0.index == selectedSubtitles }?.language
        subtitleStreams = programmeSubtitles()
        select(audioChoice)
        selectSubtitles(subtitleStreams.first { chosenSubtitles != nil && $0.language == chosenSubtitles }?.index)
    }

    /// A segment in its HLS container: MPEG-TS, or fragmented MP4 with the
    /// initialization section at the head of the queue (libavformat's mov
    /// demuxer, which reads `moov` then the fragments without seeking).
    public convenience init(queue: ByteQueue, container: SegmentContainer, cached: [CodecParameters]? = nil,
                            audio: AudioChoice = .first, program: Int? = nil) throws {
        try self.init(queue: queue, format: Self.formatName(container), cached: cached, audio: audio, program: program)
    }

    public static func formatName(_ container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: "mpegts"
        case .fragmentedMP4: "mp4"
        }
    }

    /// Chooses the audio stream to read from the next packet on.
    public func select(_ choice: AudioChoice) {
        audioChoice = choice
        selectedAudio = choice.pick(from: audioStreams)
        for (index, stream) in parameters.enumerated() where stream.kind == .audio {
            format!.pointee.streams[index]!.pointee.discard = index == selectedAudio ? AVDISCARD_DEFAULT : AVDISCARD_ALL
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
            // A PMT that changed (new streams, or others of those there were) is followed now.
            // Other programmes' streams are read and passed over here, not discarded in
            // libavformat: a programme whose streams are all discarded returns no packet, and
            // its PMT's change back would never be seen.
            try followProgramme()
            guard parameters.indices.contains(packet.streamIndex), programmes.plays(packet.streamIndex) else { continue }
            if parameters[packet.streamIndex].kind == .audio, packet.streamIndex != selectedAudio { continue }
            if parameters[packet.streamIndex].kind == .subtitle, packet.streamIndex != selectedSubtitles { continue }
            return packet
        }
    }
}
