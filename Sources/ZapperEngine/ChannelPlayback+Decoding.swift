import Foundation
import ZapperCore
import ZapperHLS
import ZapperMedia

/// The decode thread of a playback: takes each segment as it arrives, demuxes
/// and decodes it, splices discontinuities onto the end of the timeline, and
/// puts pictures and sound in their queues (which pace it).
extension ChannelPlayback {
    func decodeLoop() {
        var decoders: [Int32: Decoder] = [:]  // by stream PID
        var watches: [Int32: DecoderWatch] = [:]  // one-thread video decoders' load, by stream PID
        var ceilingWatches: [Int32: CeilingWatch] = [:]  // threaded ones', by stream PID
        var catchUp = CatchUp()  // groups of pictures skipped: behind the clock, or larger than this box decodes in time
        var behindWithSegmentsWaiting = 0  // groups skipped behind the clock with later segments waiting (the decoder's fault, not the network's)
        var toldBehind = false
        var lastTimeBase: [Int32: (numerator: Int32, denominator: Int32)] = [:]
        var timeline = SplicedTimeline()
        var jumpsTold = 0
        var path = PicturePath(choice: deinterlace)
        // Video streams whose first key frame has come (since the start or a discontinuity):
        // before it, a stream joined in the middle (a raw TS, a multiplex) has nothing to decode.
        var keyed = Set<Int32>()
        var unkeyed = 0  // packets passed over waiting: a stream that never flags a key frame is decoded after `waitForKey`
        let resampler = AudioResampler(outputRate: sampleRate)
        learnWhileWarm()
        while let entry = inbox.next() {
            let (delivery, segment) = (entry.delivery, entry.index)
            // The key frame of the head a warm neighbour kept, decoded alone: shown before the
            // demuxer opens (it may wait for the bytes after the head); the decoder's own copy,
            // which comes only once the frames after it are in, is skipped.
            let preview = delivery.keptHead ? firstPicture(of: delivery) : nil
            let spliced = timeline.beginSegment(discontinuity: delivery.discontinuitySequence, stream: delivery.isStream)
            if let early = preview {
                if let seconds = early.frame.pts.flatMap({ StreamTime.seconds($0, numerator: early.timeBase.numerator, denominator: early.timeBase.denominator) }) {
                    if timeline.anchor(firstTime: seconds) {
                        trackState.timeline(discontinuity: delivery.discontinuitySequence, offset: timeline.offset, segment: delivery.sequence)
                    }
                    guard (try? deliver(early.frame, kind: .video, stream: early.stream, timeBase: early.timeBase, segment: segment,
                                        timeline: &timeline, path: &path, resampler: resampler, still: true)) == true else { return }
                }
            }
            let demuxer: Demuxer
            var audioRequest = trackState.audioRequest
            do {
                demuxer = try Demuxer(queue: delivery.bytes, container: delivery.container,
                                      cached: parametersCache.get(channel.number, variant: delivery.variant, source: channel.url.absoluteString), audio: audioRequest.choice,
                                      program: channel.program)
                if demuxer.probed { parametersCache.set(demuxer.parameters, for: channel.number, variant: delivery.variant, source: channel.url.absoluteString) }
                trackState.streamAudio(demuxer.audioStreams, selected: demuxer.selectedAudio)
                trackState.streamSubtitles(demuxer.subtitleStreams)
                if Self.debugTimeline {
                    let streams = demuxer.parameters.map { "\($0.streamID):\($0.codecName)" }.joined(separator: " ")
                    FileHandle.standardError.write(Data("demuxer: segment \(delivery.sequence) programme \(demuxer.program.map(String.init) ?? "-") streams \(streams) audio \(demuxer.selectedAudio.map(String.init) ?? "-")\n".utf8))
                }
                // A radio channel: sound and no picture (a picture later, after a PMT change, does not undo it).
                if !demuxer.readsPicture, demuxer.parameters.contains(where: { $0.kind == .audio }) {
                    soundOnly.store(true, ordering: .relaxed)
                }
            } catch {
                if delivery.bytes.isCancelled { return }
                report(.failed(PlaybackFailure(error).at("segment \(delivery.sequence)")))
                continue
            }
            var span: (first: Double, last: Double)?  // packet times seen in this segment
            do {
                if spliced {
                    keyed.removeAll()
                    captionFeed.discontinuity(at: timeline.end)
                    // The old timeline's last pictures come out first, then the decoders start afresh.
                    for (id, decoder) in decoders {
                        guard try drain(decoder, stream: id, timeBase: lastTimeBase[id] ?? (1, 90_000),
                                        segment: segment, timeline: &timeline, path: &path, resampler: resampler) else { return }
                        decoder.flush()
                    }
                }
                // A separate rendition brings the sound: the stream's own (if any) is not played.
                var separateAudio = trackState.separateAudio != nil
                var unreadable = 0  // packets in a row a decoder could not read
                var changes = 0
                var subtitleRequest = -1  // the feed's generation the demuxer follows
                var subtitles: (index: Int, decoder: BitmapSubtitleDecoder?)?
                var chosenSubtitles: SubtitleStream?
                while let packet = try demuxer.readPacket() {
                    if bitmapFeed.request.generation != subtitleRequest {
                        // The viewer chose other subtitles: the demuxer reads that stream's packets
                        // (a teletext page: its decoder is made anew for that page).
                        let request = bitmapFeed.request
                        subtitleRequest = request.generation
                        chosenSubtitles = BitmapSubtitleFeed.stream(for: request.track, in: demuxer.subtitleStreams)
                        demuxer.selectSubtitles(chosenSubtitles?.index)
                        subtitles = nil
                    }
                    if demuxer.changes != changes {
                        // A PMT that changed: its new streams play on, without a retune; the panel lists its tracks.
                        changes = demuxer.changes
                        trackState.streamAudio(demuxer.audioStreams, selected: demuxer.selectedAudio)
                        trackState.streamSubtitles(demuxer.subtitleStreams)
                        subtitleRequest = -1
                        // Its streams start afresh: their decoders, their first key frame, their place on the timeline.
                        let played = demuxer.playedStreamIDs
                        timeline.forget(streams: played)
                        for id in played {
                            decoders[id]?.flush()
                            keyed.remove(id)
                        }
                        FileHandle.standardError.write(Data("zapper: channel \(channel.number): the stream's programme changed (\(demuxer.parameters.count) streams now); playing on\n".utf8))
                    }
                    if trackState.audioRequest.generation != audioRequest.generation {
                        audioRequest = trackState.audioRequest
                        separateAudio = trackState.separateAudio != nil
                        demuxer.select(audioRequest.choice)
                        trackState.streamAudio(demuxer.audioStreams, selected: demuxer.selectedAudio)
                        // Another muxed language: the sound queued so far goes, the new track's follows.
                        if !separateAudio { samples.removeAll() }
                    }
                    let parameters = demuxer.parameters[packet.streamIndex]
                    if parameters.kind == .subtitle {
                        // DVB subtitles or a teletext page: each page decoded onto the timeline for the loop to show.
                        if subtitles?.index != packet.streamIndex {
                            subtitles = (packet.streamIndex, try? BitmapSubtitleDecoder(parameters, teletextPage: chosenSubtitles?.teletextPage))
                        }
                        let base = demuxer.timeBase(stream: packet.streamIndex)
                        if var page = try? subtitles?.decoder?.decode(packet, timeBase: base) {
                            page.start += timeline.offset
                            page.end = page.end.map { $0 + timeline.offset }
                            bitmapFeed.add(page, generation: subtitleRequest)
                        }
                        continue
                    }
                    guard parameters.kind == .video || (parameters.kind == .audio && !separateAudio) else { continue }
                    // Sound before the first picture's key frame (a stream joined in the middle of a
                    // group) would only fill the sound queue, which waits for the picture, and
                    // hold the decoder before it reaches that key frame: it is passed over.
                    if parameters.kind == .audio, keyed.isEmpty, unkeyed <= Self.waitForKey, demuxer.readsPicture { continue }
                    let base = demuxer.timeBase(stream: packet.streamIndex)
                    // Without probing, libavformat cannot time the second and later audio
                    // frames of a PES: those packets come without a pts and are timed by
                    // continuing from the frame before.
                    let packetTime = packet.pts.flatMap { StreamTime.seconds($0, numerator: base.numerator, denominator: base.denominator) }
                    if let seconds = packetTime {
                        span = (min(span?.first ?? seconds, seconds), max(span?.last ?? seconds, seconds))
                    }
                    if let seconds = packetTime, timeline.anchor(firstTime: seconds) {
                        trackState.timeline(discontinuity: delivery.discontinuitySequence, offset: timeline.offset, segment: delivery.sequence)
                        if Self.debugTimeline {
                            FileHandle.standardError.write(Data("timeline: segment \(delivery.sequence) disc \(delivery.discontinuitySequence) variant \(delivery.variant) first \(seconds) offset \(timeline.offset) lastEnd \(timeline.end ?? -1)\n".utf8))
                        }
                    }
                    if parameters.kind == .video {
                        let time = packetTime.map { $0 + timeline.offset }
                        let late = packet.isKeyframe
                            ? catchUp.keyFrame(at: time, heard: samples.heard, tooLarge: !delivery.keptHead && isTooLarge(parameters)) == .late
                            : catchUp.picture(at: time, heard: samples.heard)
                        if late {
                            // Later segments waiting: the decoder was behind, not the network.
                            if inbox.seconds > 0 {
                                behindWithSegmentsWaiting += 1
                                fellBehind(stream: parameters.streamID, decoder: decoders[parameters.streamID], parameters: parameters, watches: &watches)
                            }
                            if !toldBehind {
                                toldBehind = true
                                FileHandle.standardError.write(Data("zapper: channel \(channel.number): decoding fell behind the clock; pictures are skipped to the next key frame until it is back in time (the sound goes on)\n".utf8))
                            }
                        }
                        guard !catchUp.skipping else { continue }
                        if !keyed.contains(parameters.streamID) {
                            unkeyed += 1
                            guard packet.isKeyframe || unkeyed > Self.waitForKey else { continue }
                            keyed.insert(parameters.streamID)
                        }
                    }
                    var decoder: Decoder
                    if let existing = decoders[parameters.streamID] {
                        decoder = existing
                    } else {
                        let pixels = parameters.kind == .video ? parameters.width * parameters.height : 0
                        decoder = try Decoder(parameters, threads: parameters.kind == .video ? decoderThreads.threads(forPixels: pixels) : 0)
                        decoders[parameters.streamID] = decoder
                    }
                    if packet.isKeyframe, watches[parameters.streamID]?.wantsThreads == true {
                        // One thread was too slow: frame threads from this key frame on, the old decoder's last pictures first.
                        guard try drain(decoder, stream: parameters.streamID, timeBase: lastTimeBase[parameters.streamID] ?? base,
                                        segment: segment, timeline: &timeline, path: &path, resampler: resampler) else { return }
                        decoder = try Decoder(parameters, threads: decoderThreads.frameThreads)
                        decoders[parameters.streamID] = decoder
                        watches[parameters.streamID] = nil
                    }
                    lastTimeBase[parameters.streamID] = base
                    do {
                        try decoder.send(packet)
                        while let frame = try decoder.receive() {
                            guard try deliver(frame, kind: decoder.kind, stream: parameters.streamID, timeBase: base,
                                              segment: segment, timeline: &timeline, path: &path, resampler: resampler) else { return }
                            let seconds = frame.pts.flatMap { StreamTime.seconds($0, numerator: base.numerator, denominator: base.denominator) }
                            // The deinterlacer's time is the decoding's too, for the speed judgements;
                            // field rate gives first.
                            let busy = decoder.busySeconds + path.busySeconds(stream: parameters.streamID)
                            if decoder.kind == .video, tag.serial != nil {
                                _ = path.judge(stream: parameters.streamID, busySeconds: busy, picture: frame, time: seconds, channel: channel.number)
                            }
                            watch(decoder, busySeconds: busy, picture: frame, time: seconds, stream: parameters.streamID, watches: &watches)
                            watchCeiling(decoder, busySeconds: busy, picture: frame, time: seconds, stream: parameters.streamID,
                                         behind: behindWithSegmentsWaiting, watches: &ceilingWatches)
                        }
                        unreadable = 0
                        if timeline.jumps > jumpsTold { jumpsTold = tellJumps(timeline.jumps, told: jumpsTold) }
                    } catch let error as AVError where error.isInvalidData && unreadable < Self.skippedPackets {
                        // A packet cut by where the stream was joined (a raw stream read from its
                        // latest key frame or joined again after a reconnection, the sound's PES
                        // begun before it) or damaged, refused when sent or when its frame is
                        // asked for: skipped, as ffplay does; only a run of them fails the segment.
                        unreadable += 1
                        continue
                    }
                }
                // A segment that holds much less than its playlist says was cut short
                // (a truncated body with a matching length is invisible to HTTP). A warm head
                // ends short when a newer one replaced it (a failed rest is reported by the session).
                let held = span.map { $0.last - $0.first } ?? 0
                if delivery.duration > 0, held < delivery.duration / 2, !delivery.keptHead {
                    report(.failed(PlaybackFailure(.truncated, "segment \(delivery.sequence) holds \(String(format: "%.1f", held)) s of its \(String(format: "%.1f", delivery.duration)) s")))
                }
            } catch {
                if delivery.bytes.isCancelled || inbox.isStopped { return }
                report(.failed(PlaybackFailure(error).at("segment \(delivery.sequence)")))
            }
            bufferedSeconds.value = bufferedAhead
        }
    }

    /// Pictures at least as large as this box was found to decode too slowly, while the
    /// channel has smaller ones (which the session fetches from now on).
    private func isTooLarge(_ parameters: CodecParameters) -> Bool {
        guard let ceiling = decodeCeiling.pixels, let smallest = trackState.smallestPicture, smallest < ceiling else { return false }
        return parameters.width * parameters.height >= ceiling
    }

    /// A raw stream's clock jumped (`SplicedTimeline` mended it), for a person reading the
    /// log: the first few, then every hundredth. Returns the count told.
    private func tellJumps(_ jumps: Int, told: Int) -> Int {
        if jumps <= 3 || jumps / 100 > told / 100 {
            let more = jumps == 3 ? " (further ones: every hundredth)" : ""
            FileHandle.standardError.write(Data("zapper: channel \(channel.number): the stream's clock jumped (\(jumps) so far\(more)); it plays on from where it was\n".utf8))
        }
        return jumps
    }

    /// Delivers the pictures or sound `decoder` still holds; false once the playback stopped.
    private func drain(_ decoder: Decoder, stream: Int32, timeBase: (numerator: Int32, denominator: Int32), segment: Int,
                       timeline: inout SplicedTimeline, path: inout PicturePath, resampler: AudioResampler) throws -> Bool {
        try decoder.send(nil)
        while let frame = try decoder.receive() {
            guard try deliver(frame, kind: decoder.kind, stream: stream, timeBase: timeBase,
                              segment: segment, timeline: &timeline, path: &path, resampler: resampler) else { return false }
        }
        guard decoder.kind == .video else { return true }
        for (picture, time) in try path.drain(stream: stream) {
            guard enqueue(picture: picture, at: time, segment: segment) else { return false }
        }
        return true
    }

    /// Puts a decoded frame on the timeline and in its queue; false once the playback stopped.
    private func deliver(_ frame: Frame, kind: MediaKind, stream: Int32, timeBase: (numerator: Int32, denominator: Int32),
                         segment: Int, timeline: inout SplicedTimeline, path: inout PicturePath, resampler: AudioResampler,
                         still: Bool = false) throws -> Bool {
        let duration = kind == .video
            ? 1.0 / 30  // nominal frame time: FFmpeg 5.1 frames carry no duration
            : Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
        let seconds = frame.pts.flatMap { StreamTime.seconds($0, numerator: timeBase.numerator, denominator: timeBase.denominator) }
        guard let time = timeline.place(stream: stream, seconds: seconds, duration: duration) else {
            return true  // nothing to place it by
        }
        if kind == .video {
            captionFeed.picture(frame, at: time, tracks: trackState)
            if still { return enqueue(picture: path.still(frame, timeBase: timeBase), at: time, segment: segment, still: true) }
            let fields = try path.pictures(for: frame, stream: stream, timeBase: timeBase, at: time)
            if path.givesFields { pictures.keepAtLeast(Self.minFieldPictures) }
            for (picture, pictureTime) in fields {
                guard enqueue(picture: picture, at: pictureTime, segment: segment) else { return false }
            }
            return true
        }
        return samples.push(try resampler.convert(frame), at: time)
    }
}
